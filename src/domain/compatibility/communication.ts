/**
 * Communication dimension: can the two parts be linked over a bus they declare?
 *
 * "Linked" means one can be attached to the other's bus, or both to the same bus. Addressing and
 * bit rates are not in the data and are not checked. Roles (host, bus master, device) come from
 * the caller or from the record's category (roles.ts); only bridges and relations that need a host
 * on one side read them.
 *
 * Rules, in order (buses and protocols as read by readComm(), facts from data/buses.json):
 * 1. Either side has no recognised bus -> unknown. (A bus implied by a single-carrier protocol, e.g.
 *    Modbus TCP -> Ethernet, counts only when the side declares no bus at all.)
 * 2. A bus both sides declare -> compatible, unless on every shared bus
 *    - both sides name application protocols with no family in common (e.g. CANopen vs a vendor's
 *      own CAN framing) -> adapter_required (protocol translation by a host or gateway that speaks
 *      both); vendor-specific framing ("custom CAN", "proprietary") is one family per manufacturer;
 *    - or one side names a vendor-specific framing and the other names no protocol on that bus ->
 *      unknown: nothing says the other speaks the vendor's framing.
 *    A standard protocol named by one side only becomes a condition.
 * 3. No shared bus, a relation of the table:
 *    - CAN FD vs classic CAN -> compatible with a condition: CAN FD controllers (ISO 11898-1:2015)
 *      also handle classic CAN frames, classic-only nodes cannot receive CAN FD frames, so the
 *      shared bus must run classic CAN. The condition names the CAN FD side.
 *    - EtherCAT vs Ethernet -> compatible with a condition only when the Ethernet side is a host or
 *      bus master (it runs an EtherCAT master stack on a standard port); when its role is not
 *      known -> unknown; when it is a device (an actuator, a sensor) the relation does not apply.
 * 4. No shared bus, a bridge of the table (real products and standard adapters, each with the
 *    snapshot record that names it) between a bus of a and a bus of b -> adapter_required, the
 *    bridge named. A bridge that needs a host on one side (a USB interface) applies only when that
 *    side is a host or bus master; when its role is not known -> unknown.
 * 5. Otherwise no link is known. When every bus of one side is an on-board link (kind "board":
 *    I2C, SPI, PWM, MIPI CSI, PCIe) and neither side has unrecognised or vendor-specific written
 *    forms -> incompatible (on-board links have no off-the-shelf bridge to another bus). Else ->
 *    unknown, the missing link named: no row of the bridges table covers it, which does not mean
 *    that no bridge exists.
 */
import type { StoredEntity } from '../catalogue/entity.js';
import { readComm, type BusTable, type CommReading } from './buses.js';
import { inferRole, isHostRole, type RoleReading } from './roles.js';
import { ev, type BusLink, type CommunicationResult } from './types.js';

/** The roles of the two sides (declared by the caller, else inferred from the records). */
export interface CommRoles {
  a: RoleReading;
  b: RoleReading;
}

interface AppProtocol {
  family: string;
  name: string;
  /** Bus ids it runs on; null = not stated (any bus of the side). */
  carriers: string[] | null;
}

const fold = (s: string) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

function appProtocols(table: BusTable, r: CommReading, manufacturer: string | null, side: 'a' | 'b'): AppProtocol[] {
  const out: AppProtocol[] = [];
  for (const pid of r.protocols) {
    const p = table.protocol(pid);
    if (p.layer !== 'application') continue;
    out.push({ family: p.family, name: p.name, carriers: p.carriers.length > 0 ? p.carriers : null });
  }
  for (const v of r.vendorSpecific) {
    const family = manufacturer && manufacturer.trim() !== '' ? `vendor:${fold(manufacturer)}` : `vendor:unknown:${side}`;
    out.push({ family, name: `${v.written} (vendor-specific)`, carriers: v.bus ? [v.bus] : null });
  }
  return out;
}

const on = (ps: AppProtocol[], bus: string) => ps.filter((p) => p.carriers === null || p.carriers.includes(bus));
const names = (ps: AppProtocol[]) => [...new Set(ps.map((p) => p.name))].join(', ');

export function communicationDimension(a: StoredEntity, b: StoredEntity, table: BusTable, roles: CommRoles = { a: inferRole(a), b: inferRole(b) }): CommunicationResult {
  const ra = readComm(table, a);
  const rb = readComm(table, b);
  const evidence = (['a', 'b'] as const).flatMap((s) => {
    const e = s === 'a' ? a : b;
    return [ev(s, 'protocol', e.protocol, e), ev(s, 'interface', e.interface, e), ev(s, 'interfaces', e.interfaces, e)];
  });
  const busesA = ra.buses.length > 0 ? ra.buses : ra.implied;
  const busesB = rb.buses.length > 0 ? rb.buses : rb.implied;
  const pa = appProtocols(table, ra, a.manufacturer, 'a');
  const pb = appProtocols(table, rb, b.manufacturer, 'b');
  const busName = (id: string) => table.bus(id).name;
  const detail = {
    buses_a: busesA,
    buses_b: busesB,
    protocols_a: [...ra.protocols.map((p) => table.protocol(p).name), ...ra.vendorSpecific.map((v) => `${v.written} (vendor-specific)`)],
    protocols_b: [...rb.protocols.map((p) => table.protocol(p).name), ...rb.vendorSpecific.map((v) => `${v.written} (vendor-specific)`)],
    shared_buses: busesA.filter((x) => busesB.includes(x)),
    links: [] as BusLink[],
    missing: [] as string[],
    roles,
    unrecognized_a: ra.unrecognized,
    unrecognized_b: rb.unrecognized,
  };
  const conditions: string[] = [];
  for (const [s, r] of [['a', ra], ['b', rb]] as const) {
    if (r.buses.length === 0 && r.implied.length > 0) {
      conditions.push(`${s} declares no bus; ${r.implied.map(busName).join(', ')} is implied by its protocol.`);
    }
  }

  const missing = (['a', 'b'] as const).filter((s) => (s === 'a' ? busesA : busesB).length === 0);
  if (missing.length > 0) {
    const why = missing.map((s) => {
      const r = s === 'a' ? ra : rb;
      const seen = [...r.protocols.map((p) => table.protocol(p).name), ...r.vendorSpecific.map((v) => v.written), ...r.unrecognized];
      return seen.length === 0 ? `${s} declares no protocol or interface` : `${s} declares no recognised bus (${seen.map((x) => `"${x}"`).join(', ')})`;
    });
    return { verdict: 'unknown', reason: `${why.join('; ')}.`, evidence, conditions, adapters: [], detail };
  }

  // Rule 2: shared buses.
  const links: BusLink[] = [];
  for (const x of detail.shared_buses) {
    const xa = on(pa, x);
    const xb = on(pb, x);
    const conflict = xa.length > 0 && xb.length > 0 && !xa.some((p) => xb.some((q) => q.family === p.family));
    if (conflict) {
      links.push({
        bus_a: x,
        bus_b: x,
        verdict: 'adapter_required',
        via: `protocol translation between ${names(xa)} and ${names(xb)} over ${busName(x)} (a host or gateway that speaks both)`,
        condition: null,
      });
    } else {
      const oneSided = xa.length > 0 && xb.length === 0 ? { by: 'a', other: 'b', ps: xa } : xb.length > 0 && xa.length === 0 ? { by: 'b', other: 'a', ps: xb } : null;
      const vendor = oneSided?.ps.filter((p) => p.family.startsWith('vendor:')) ?? [];
      if (oneSided && vendor.length > 0) {
        // A vendor's own framing against a side that names no protocol: nothing says it speaks it.
        detail.missing.push(`${oneSided.by} uses ${names(vendor)} over ${busName(x)}; ${oneSided.other} names no protocol on it, so whether it speaks that framing is not declared.`);
        continue;
      }
      links.push({
        bus_a: x,
        bus_b: x,
        verdict: 'compatible',
        via: null,
        condition: oneSided ? `${oneSided.by} uses ${names(oneSided.ps)} over ${busName(x)}; whether ${oneSided.other} speaks it is not declared.` : null,
      });
    }
  }
  // Rules 3-4: relations and bridges between different buses (only when no bus is shared: a
  // gateway does not fix a protocol mismatch on a shared bus).
  const bridges: BusLink[] = [];
  const side = (s: 'a' | 'b') => (s === 'a' ? { e: a, r: roles.a, ps: pa } : { e: b, r: roles.b, ps: pb });
  const roleText = (r: RoleReading) => (r.role === null ? 'its role is not known' : `it is ${r.source === 'declared' ? 'declared' : 'read as'} ${r.role.replace('_', ' ')}`);
  for (const x of detail.shared_buses.length > 0 ? [] : busesA) {
    for (const y of busesB) {
      const rel = table.relation(x, y);
      if (rel?.verdict === 'compatible' && rel.requires_role) {
        // A host-only relation (EtherCAT devices on the host's Ethernet port, under a master stack).
        const hostSide: 'a' | 'b' = x === rel.requires_role.bus ? 'a' : 'b';
        const devSide: 'a' | 'b' = hostSide === 'a' ? 'b' : 'a';
        const h = side(hostSide);
        const devBus = hostSide === 'a' ? y : x;
        const vendor = on(side(devSide).ps, devBus).filter((p) => p.family.startsWith('vendor:'));
        const pair = `${busName(devBus)} (${devSide}) to ${busName(rel.requires_role.bus)} (${hostSide})`;
        if (h.r.role !== null && !rel.requires_role.roles.includes(h.r.role)) continue; // a device side: the relation does not apply
        if (h.r.role === null) {
          detail.missing.push(`${pair} works only when ${hostSide} is a host or bus master; ${roleText(h.r)}.`);
          continue;
        }
        if (vendor.length > 0) {
          detail.missing.push(`${pair} with ${hostSide} as host: ${devSide} uses ${names(vendor)} over ${busName(devBus)}; whether a master stack on ${hostSide} speaks it is not declared.`);
          continue;
        }
        links.push({ bus_a: x, bus_b: y, verdict: 'compatible', via: null, condition: `${hostSide} is ${h.r.source === 'declared' ? 'declared' : 'read as'} ${h.r.role.replace('_', ' ')}. ${rel.condition}` });
        continue;
      }
      if (rel?.verdict === 'compatible') {
        const xa = on(pa, x);
        const yb = on(pb, y);
        const conflict = xa.length > 0 && yb.length > 0 && !xa.some((p) => yb.some((q) => q.family === p.family));
        const fdSide = x === 'can_fd' ? 'a' : y === 'can_fd' ? 'b' : null;
        const prefix = fdSide ? `${fdSide} is CAN FD, ${fdSide === 'a' ? 'b' : 'a'} classic CAN. ` : '';
        const suffix = fdSide ? ` Whether ${fdSide} can be run with classic CAN frames is not declared.` : '';
        links.push(
          conflict
            ? {
                bus_a: x,
                bus_b: y,
                verdict: 'adapter_required',
                via: `protocol translation between ${names(xa)} and ${names(yb)} (a host or gateway that speaks both)`,
                condition: `${prefix}${rel.condition}`,
              }
            : { bus_a: x, bus_b: y, verdict: 'compatible', via: null, condition: `${prefix}${rel.condition}${suffix}` },
        );
        continue;
      }
      if (rel?.verdict === 'adapter_required') {
        bridges.push({ bus_a: x, bus_b: y, verdict: 'adapter_required', via: rel.via ?? null, condition: null });
        continue;
      }
      for (const { bridge, sideOfX } of table.bridgesBetween(x, y)) {
        const evidence = `${bridge.evidence.file}: ${bridge.evidence.record}`;
        if (bridge.host_side !== null) {
          const hostSide: 'a' | 'b' = bridge.host_side === sideOfX ? 'a' : 'b';
          const h = side(hostSide);
          const hostBus = hostSide === 'a' ? x : y;
          if (h.r.role === null) {
            detail.missing.push(`${bridge.name} links ${busName(x)} (a) and ${busName(y)} (b) only when ${hostSide} is the host on its ${busName(hostBus)} port; ${roleText(h.r)}.`);
            continue;
          }
          if (!isHostRole(h.r.role)) continue; // the bridge needs a host on that side
        }
        bridges.push({ bus_a: x, bus_b: y, verdict: 'adapter_required', via: bridge.name, condition: null, bridge: { id: bridge.id, kind: bridge.kind, evidence } });
      }
    }
  }
  links.push(...bridges);
  links.sort((l, m) => (l.verdict === m.verdict ? 0 : l.verdict === 'compatible' ? -1 : 1));
  detail.links = links.filter((l) => l.verdict === 'compatible').length > 0 ? links.filter((l) => l.verdict === 'compatible') : links;

  const best = detail.links[0];
  if (best?.verdict === 'compatible') {
    const shared = detail.links.filter((l) => l.bus_a === l.bus_b).map((l) => busName(l.bus_a));
    const reason =
      shared.length > 0
        ? `Both declare ${shared.join(', ')}.`
        : `${busName(best.bus_a)} (a) and ${busName(best.bus_b)} (b) can share a bus under a condition.`;
    // Any one compatible link suffices: no condition when one is unconditional, else the first link's.
    const unconditional = detail.links.some((l) => l.condition === null);
    return {
      verdict: 'compatible',
      reason,
      evidence,
      conditions: [...conditions, ...(unconditional || best.condition === null ? [] : [best.condition])],
      adapters: [],
      detail,
    };
  }
  if (best) {
    const adapters = [...new Set(detail.links.map((l) => l.via).filter((v): v is string => v !== null))];
    return {
      verdict: 'adapter_required',
      reason:
        detail.shared_buses.length > 0
          ? `Both declare ${detail.shared_buses.map(busName).join(', ')}, but name different application protocols on it; they need ${adapters[0]}.`
          : `No bus in common: a declares ${busesA.map(busName).join(', ')}; b declares ${busesB.map(busName).join(', ')}. They can be linked through ${adapters[0]}${adapters.length > 1 ? ' (or another listed adapter)' : ''}.`,
      evidence,
      conditions,
      adapters,
      detail,
    };
  }
  if (detail.missing.length > 0) {
    return { verdict: 'unknown', reason: `No link the data settles: ${detail.missing.join(' ')}`, evidence, conditions, adapters: [], detail };
  }
  const uncertain = [...ra.unrecognized, ...rb.unrecognized, ...ra.vendorSpecific.filter((v) => !v.bus).map((v) => v.written), ...rb.vendorSpecific.filter((v) => !v.bus).map((v) => v.written)];
  if (uncertain.length > 0) {
    return {
      verdict: 'unknown',
      reason: `No recognised bus in common and no listed bridge; written forms not recognised (${uncertain.map((u) => `"${u}"`).join(', ')}) might name one.`,
      evidence,
      conditions,
      adapters: [],
      detail,
    };
  }
  const onBoard = (ids: string[]) => ids.every((id) => table.bus(id).kind === 'board');
  const boardSide = onBoard(busesA) ? 'a' : onBoard(busesB) ? 'b' : null;
  if (boardSide) {
    const ids = boardSide === 'a' ? busesA : busesB;
    return {
      verdict: 'incompatible',
      reason: `No bus in common (a: ${busesA.map(busName).join(', ')}; b: ${busesB.map(busName).join(', ')}), and ${boardSide} declares on-board links only (${ids.map(busName).join(', ')}), which have no off-the-shelf bridge to another bus.`,
      evidence,
      conditions,
      adapters: [],
      detail,
    };
  }
  const pairs = busesA.flatMap((x) => busesB.map((y) => `${busName(x)}–${busName(y)}`));
  detail.missing.push(`a bridge ${pairs.length === 1 ? 'for' : 'for one of'} ${pairs.join(', ')}`);
  return {
    verdict: 'unknown',
    reason: `No bus in common (a: ${busesA.map(busName).join(', ')}; b: ${busesB.map(busName).join(', ')}) and no bridge between them in the bridges table (data/buses.json); the missing link is ${detail.missing[detail.missing.length - 1]}. An unlisted bridge may exist; none is assumed.`,
    evidence,
    conditions,
    adapters: [],
    detail,
  };
}
