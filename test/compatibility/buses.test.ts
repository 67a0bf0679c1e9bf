import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseBusTable, readComm, splitPieces } from '../../src/domain/compatibility/index.js';
import { readBusTable } from '../../src/store/datasets.js';

const DATA_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data');
const table = readBusTable(DATA_DIR);
const read = (protocol: string, iface = 'N/A', interfaces: string[] = []) => readComm(table, { protocol, interface: iface, interfaces });

describe('bus facts table (data/buses.json)', () => {
  it('parses and lists the relations the engine relies on', () => {
    expect(table.relation('can', 'can_fd')?.verdict).toBe('compatible');
    expect(table.relation('can', 'ethercat')).toBeNull(); // no gateway is assumed: bridges come from the bridges table only
    expect(table.relation('ethernet', 'ethercat')).toMatchObject({ verdict: 'compatible', requires_role: { bus: 'ethernet', roles: ['host', 'bus_master'] } });
    expect(table.relation('can', 'rs485')).toBeNull();
    expect(table.bridgesBetween('usb', 'rs485').map((b) => [b.bridge.id, b.sideOfX])).toEqual([['robotis_u2d2', 0]]);
    expect(table.bridgesBetween('can', 'usb').map((b) => [b.bridge.id, b.sideOfX])).toEqual([['usb_can_interface', 1]]);
    expect(table.bridgesBetween('ethercat', 'can')).toEqual([]);
  });
  it('rejects a bridge that names an unknown bus, repeats an id or puts a bus on both sides', () => {
    const t = raw();
    t.bridges[0].sides[1].push('flexray');
    expect(() => parseBusTable(t)).toThrow(/bridge robotis_u2d2 names unknown bus flexray/);
    const u = raw();
    u.bridges.push({ ...u.bridges[0] });
    expect(() => parseBusTable(u)).toThrow(/duplicate bridge id robotis_u2d2/);
    const v = raw();
    v.bridges[0].sides[1].push('usb');
    expect(() => parseBusTable(v)).toThrow(/has a bus on both sides/);
    const w = raw();
    delete w.bridges[0].evidence;
    expect(() => parseBusTable(w)).toThrow(/evidence/);
  });

  const raw = () => JSON.parse(fs.readFileSync(path.join(DATA_DIR, 'buses.json'), 'utf8'));
  it('rejects a relation that names an unknown bus', () => {
    const t = raw();
    t.relations.push({ between: ['can', 'flexray'], verdict: 'adapter_required', via: 'x' });
    expect(() => parseBusTable(t)).toThrow(/unknown bus flexray/);
  });
  it('rejects a written form claimed by two buses (after folding)', () => {
    const t = raw();
    t.buses[0].aliases.push('Ether-CAT');
    expect(() => parseBusTable(t)).toThrow(/claimed by can and ethercat/);
  });
  it('rejects a protocol carried by an unknown bus', () => {
    const t = raw();
    t.protocols[0].carriers = ['flexray'];
    expect(() => parseBusTable(t)).toThrow(/unknown carrier flexray/);
  });
});

describe('reading the catalogue notations', () => {
  it.each<[string, string, string[], { buses: string[]; protocols?: string[]; vendor?: string[]; unrecognized?: string[] }]>([
    ['CAN bus', 'CAN', [], { buses: ['can'] }],
    ['custom CAN', 'CAN', [], { buses: ['can'], vendor: ['custom CAN'] }],
    ['EtherCAT/proprietary', 'EtherCAT/USB', [], { buses: ['ethercat', 'usb'], vendor: ['proprietary'] }],
    ['DYNAMIXEL Protocol 2.0', 'TTL/RS485', [], { buses: ['ttl_serial', 'rs485'], protocols: ['dynamixel_2'] }],
    ['EtherCAT/CANopen', 'EtherCAT/CAN/EthernetIP', [], { buses: ['ethercat', 'can', 'ethernet_ip'], protocols: ['canopen'] }],
    ['IO-Link/EtherNetIP', 'IO-Link/EtherNetIP/PROFINET', [], { buses: ['io_link', 'ethernet_ip', 'profinet'] }],
    ['IO_Link', 'N/A', [], { buses: ['io_link'] }],
    ['UDP/TCP', 'Ethernet/WiFi', [], { buses: ['ethernet', 'wifi'], protocols: ['udp', 'tcp'] }],
    ['Modbus TCP', 'Ethernet/USB/RS485', [], { buses: ['ethernet', 'usb', 'rs485'], protocols: ['modbus_tcp'] }],
    ['1000BASE-T1', 'N/A', [], { buses: ['ethernet_t1'] }],
    ['VESC/UART', 'UART/USB/CAN', [], { buses: ['uart', 'usb', 'can'], unrecognized: ['VESC'] }],
    ['Tesla proprietary', 'proprietary bus', [], { buses: [], vendor: ['Tesla proprietary', 'proprietary bus'] }],
    ['ESCON controller', 'analog/digital', [], { buses: [], unrecognized: ['ESCON controller', 'analog', 'digital'] }],
    ['pneumatic', 'N/A', [], { buses: [], unrecognized: ['pneumatic'] }],
    ['N/A', 'PCIe Gen5, Ethernet, MIPI CSI', [], { buses: ['pcie', 'ethernet', 'mipi_csi'] }],
    [
      'N/A',
      'N/A',
      ['PCIe 3.0 x2', 'USB 3.0', 'MIPI CSI-2', 'HDMI 2.1', 'GbE', 'CAN'],
      { buses: ['pcie', 'usb', 'mipi_csi', 'ethernet', 'can'], unrecognized: ['HDMI 2.1'] },
    ],
    ['N/A', 'N/A', ['CAN FD', 'RS485', 'DM-Flux (10 TOPS)'], { buses: ['can_fd', 'rs485'], unrecognized: ['DM-Flux (10 TOPS)'] }],
    ['N/A', 'N/A', ['SPI', 'I2C', 'UART', 'CAN-FD', 'ETH', 'HSSL'], { buses: ['spi', 'i2c', 'uart', 'can_fd', 'ethernet'], unrecognized: ['HSSL'] }],
    ['N/A', 'N/A', ['PCIe 5.0', 'USB4', 'Thunderbolt 4', 'Wi-Fi 7', 'CAN', 'MIPI CSI'], { buses: ['pcie', 'usb', 'wifi', 'can', 'mipi_csi'], unrecognized: ['Thunderbolt 4'] }],
    ['N/A', 'N/A', ['TTL', 'RS485', 'USB', 'ROS', 'ROS2'], { buses: ['ttl_serial', 'rs485', 'usb'] }],
    ['N/A', 'N/A', ['USB', 'Linux SDK', 'ROS/ROS2'], { buses: ['usb'] }],
    ['N/A', 'N/A', ['Ethernet', 'gRPC', 'Python SDK', 'ROS2'], { buses: ['ethernet'] }],
    ['N/A', 'N/A', ['PCIe Gen3 x4', 'M.2'], { buses: ['pcie'], unrecognized: ['M.2'] }],
  ])('%s | %s | %j', (protocol, iface, interfaces, want) => {
    const r = read(protocol, iface, interfaces);
    expect(r.buses).toEqual(want.buses);
    expect(r.protocols).toEqual(want.protocols ?? []);
    expect(r.vendorSpecific.map((v) => v.written)).toEqual(want.vendor ?? []);
    expect(r.unrecognized).toEqual(want.unrecognized ?? []);
  });

  it('keeps known slash-joined forms whole', () => {
    expect(splitPieces(table, 'EtherNet/IP/CAN')).toEqual(['EtherNet/IP', 'CAN']);
    expect(splitPieces(table, 'TCP/IP')).toEqual(['TCP/IP']);
    expect(splitPieces(table, 'ROS/ROS2')).toEqual(['ROS', 'ROS2']);
    expect(splitPieces(table, 'UART / USB ,CAN')).toEqual(['UART', 'USB', 'CAN']);
  });

  it('a custom framing records its bus', () => {
    expect(read('custom CAN').vendorSpecific).toEqual([{ written: 'custom CAN', bus: 'can' }]);
  });

  it('implies a single carrier only when no bus is declared', () => {
    expect(read('Modbus TCP').implied).toEqual(['ethernet']);
    expect(read('Modbus TCP', 'RS485').implied).toEqual([]);
    expect(read('Modbus').implied).toEqual([]);
    expect(read('DYNAMIXEL Protocol 2.0').implied).toEqual([]);
  });
});
