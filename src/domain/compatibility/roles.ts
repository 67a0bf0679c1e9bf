/**
 * What a part does in a system, for the bus and power checks: declared by the caller (check_bom's
 * `role` per item) or inferred from the record's category and type by the table below. A part
 * the table does not place has no role (null): rules that need a role then answer unknown.
 *
 * | role        | meaning                                                    | inferred from                                       |
 * |-------------|------------------------------------------------------------|-----------------------------------------------------|
 * | host        | a computer the other parts are attached to (USB host, Ethernet port, EtherCAT master stack) | category chips, except accelerators and FPGAs (type contains "accelerator" or "fpga") |
 * | bus_master  | a controller that masters a fieldbus for others            | never inferred (declare it)                         |
 * | actuator    | a motor, drive, servo, gripper or hand                     | categories actuators, controllers, grippers, flexible_actuators, integrated_joints |
 * | sensor      | a sensor or data-acquisition device                        | categories sensors, data_acquisition                |
 * | power       | a battery or power supply                                  | category power                                      |
 * | passive     | no supply, no bus: reducers, structure, cables, connectors, boards, printed mechanisms | categories reducers, structural, cables, connectors, pcb, bionic_mechanisms |
 *
 * Where the roles are used:
 * - communication: a bridge or relation that needs a host on one side (a USB interface, an
 *   EtherCAT master on a standard Ethernet port) applies only when that side is a host or bus master;
 * - check_bom: buses are checked between each device and the hosts and masters of the set; power
 *   and passive parts are left out of the bus check, passive parts out of the supply-rail check,
 *   power parts out of the flange check.
 */
import type { StoredEntity } from '../catalogue/entity.js';

export const ROLES = ['host', 'bus_master', 'actuator', 'sensor', 'power', 'passive'] as const;
export type Role = (typeof ROLES)[number];

/** A part's role and where it comes from. */
export interface RoleReading {
  role: Role | null;
  source: 'declared' | 'inferred' | 'none';
  /** The rule that placed it (or why none did). */
  basis: string;
}

const BY_CATEGORY: Readonly<Record<string, Role>> = {
  chips: 'host',
  actuators: 'actuator',
  controllers: 'actuator',
  grippers: 'actuator',
  flexible_actuators: 'actuator',
  integrated_joints: 'actuator',
  sensors: 'sensor',
  data_acquisition: 'sensor',
  power: 'power',
  reducers: 'passive',
  structural: 'passive',
  cables: 'passive',
  connectors: 'passive',
  pcb: 'passive',
  bionic_mechanisms: 'passive',
};

/** The role the table gives a record (see the file header). */
export function inferRole(e: Pick<StoredEntity, 'category' | 'type'>): RoleReading {
  const role = BY_CATEGORY[e.category];
  if (!role) return { role: null, source: 'none', basis: `category ${e.category} has no role in the table` };
  if (role === 'host' && /accelerator|fpga/i.test(e.type ?? '')) {
    return { role: null, source: 'none', basis: `category ${e.category}, type ${e.type}: an accelerator or FPGA is attached to a host, not one` };
  }
  return { role, source: 'inferred', basis: `category ${e.category}` };
}

/** The declared role when given, else the inferred one. */
export function roleOf(e: Pick<StoredEntity, 'category' | 'type'>, declared?: Role | null): RoleReading {
  return declared ? { role: declared, source: 'declared', basis: 'declared by the caller' } : inferRole(e);
}

/** True when the part can serve others as host or bus master. */
export const isHostRole = (r: Role | null): boolean => r === 'host' || r === 'bus_master';
