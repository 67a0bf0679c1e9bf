/**
 * Synthetic records mirroring real catalogue records (same fields and notations as the snapshot's
 * entities; ids suffixed "-like" so nobody mistakes them for the real records).
 */
import { makeEntity } from './factory.js';

/** ROBOTIS smart servo: DYNAMIXEL Protocol 2.0 over TTL/RS485, 10.0~14.8V, ros_support true (like ACT-001). */
export const dxlA = makeEntity({
  id: 'ACT-001-like',
  manufacturer: 'ROBOTIS',
  type: 'smart_servo',
  protocol: 'DYNAMIXEL Protocol 2.0',
  interface: 'TTL/RS485',
  declaredVoltage: '10.0~14.8V',
  ros_support: true,
});
/** Same vendor, protocol and voltage (like ACT-002). */
export const dxlB = makeEntity({
  id: 'ACT-002-like',
  manufacturer: 'ROBOTIS',
  type: 'smart_servo',
  protocol: 'DYNAMIXEL Protocol 2.0',
  interface: 'TTL/RS485',
  declaredVoltage: '10.0~14.8V',
  ros_support: true,
});
/** Same vendor, RS485 only, 24.0~48.0V (like ACT-003). */
export const dxlPro = makeEntity({
  id: 'ACT-003-like',
  manufacturer: 'ROBOTIS',
  type: 'smart_servo',
  protocol: 'DYNAMIXEL Protocol 2.0',
  interface: 'RS485',
  declaredVoltage: '24.0~48.0V',
  ros_support: true,
});
/** T-Motor: CAN bus / CAN, 24V (like ACT-006). */
export const tmotor = makeEntity({ id: 'ACT-006-like', manufacturer: 'T-Motor', protocol: 'CAN bus', interface: 'CAN', declaredVoltage: '24V', ros_support: true });
/** Unitree: custom CAN / CAN, 24V (like ACT-011). */
export const unitree = makeEntity({ id: 'ACT-011-like', manufacturer: 'Unitree', protocol: 'custom CAN', interface: 'CAN', declaredVoltage: '24V', ros_support: true });
/** Unitree: custom CAN / CAN, 21.6V (like ACT-012). */
export const unitree2 = makeEntity({ id: 'ACT-012-like', manufacturer: 'Unitree', protocol: 'custom CAN', interface: 'CAN', declaredVoltage: '21.6V', ros_support: true });
/** Anybotics SEA: EtherCAT, 48V (like ACT-017). */
export const anydrive = makeEntity({ id: 'ACT-017-like', manufacturer: 'Anybotics', protocol: 'EtherCAT', interface: 'EtherCAT', declaredVoltage: '48V', ros_support: true });
/** Moog: EtherCAT/CANopen over EtherCAT/CAN/EthernetIP, 48-400V (like ACT-020). */
export const moog = makeEntity({
  id: 'ACT-020-like',
  manufacturer: 'Moog',
  protocol: 'EtherCAT/CANopen',
  interface: 'EtherCAT/CAN/EthernetIP',
  declaredVoltage: '48-400V',
  ros_support: true,
});
/** ODrive: UART/CAN over UART/USB/CAN, 12-48V (like ACT-004). */
export const odrive = makeEntity({ id: 'ACT-004-like', manufacturer: 'Odrive', protocol: 'UART/CAN', interface: 'UART/USB/CAN', declaredVoltage: '12-48V', ros_support: true });
/** SimpleFOC: UART/I2C over UART/I2C/SPI, 5-30V, ros_support false (like ACT-005). */
export const simplefoc = makeEntity({ id: 'ACT-005-like', manufacturer: 'SimpleFOC', protocol: 'UART/I2C', interface: 'UART/I2C/SPI', declaredVoltage: '5-30V', ros_support: false });
/** Robotiq gripper: Modbus TCP over Ethernet/USB/RS485, 24V (like ACT-028). */
export const robotiq = makeEntity({
  id: 'ACT-028-like',
  manufacturer: 'Robotiq',
  category: 'actuators',
  protocol: 'Modbus TCP',
  interface: 'Ethernet/USB/RS485',
  declaredVoltage: '24V',
  ros_support: true,
});
/** Tesla actuator: proprietary, voltage "classified", ros_support false (like ACT-013). */
export const tesla = makeEntity({ id: 'ACT-013-like', manufacturer: 'Tesla', protocol: 'Tesla proprietary', interface: 'proprietary bus', declaredVoltage: 'classified', ros_support: false });
/** Maxon: "ESCON controller" / "analog/digital", 24V (like ACT-008). */
export const maxon = makeEntity({ id: 'ACT-008-like', manufacturer: 'Maxon', protocol: 'ESCON controller', interface: 'analog/digital', declaredVoltage: '24V', ros_support: true });
/** A compute chip whose interfaces list CAN-FD but not classic CAN. */
export const fdChip = makeEntity({
  id: 'CHIP-fd-like',
  category: 'chips',
  manufacturer: 'Infineon',
  interfaces: ['SPI', 'I2C', 'UART', 'CAN-FD', 'ETH', 'HSSL'],
});
/** A controller listing both CAN-FD and CAN. */
export const fdAndClassic = makeEntity({ id: 'CTRL-fd-can-like', category: 'controllers', manufacturer: 'X', interfaces: ['CAN-FD', 'CAN', 'USB', 'SPI'] });
/** A protocol specification record (like the protocols category). */
export const canopenSpec = makeEntity({ id: 'PROTO-canopen-like', category: 'protocols', entity_kind: 'specification', name: 'CANopen', protocol: 'CANopen' });
/** A robot AI model. */
export const vlaModel = makeEntity({ id: 'RAM-vla-like', category: 'robot_ai_models', entity_kind: 'software', name: 'Some VLA' });
/** An LLM record. */
export const llm = makeEntity({ id: 'LLM-like', category: 'llms', entity_kind: 'software' });
