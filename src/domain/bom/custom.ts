/**
 * User-declared parts (product.md "User-declared parts"): a BOM item may be
 * `{custom: {name, role, buses?, voltage_v?, price?, mass_kg?, flange?}, quantity}` instead of a
 * catalogue id. It is checked by the same rules as a catalogue part: the declaration becomes a
 * record of the shape the compatibility engine reads (buses in `interfaces`, the voltage range in
 * `voltage`, the flange in `mechanical_interface`), so bridges come from data/buses.json, rails from
 * the same sweep and flanges from the same registry. Nothing is added that the caller did not
 * declare: an absent field stays absent (and the check lists it as unknown).
 *
 * Decisions:
 * - Roles map onto the engine's roles: host, actuator, sensor, power as such; structure -> passive
 *   (no supply, no bus); other -> no role (checked on bus and supply like a part whose role is not
 *   known).
 * - Buses must be written forms data/buses.json recognises (a bus such as "USB", or a protocol such
 *   as "CANopen"); anything else is refused with the recognised bus names, never guessed.
 * - A flange must be a registered designation (data/flange); anything else is refused.
 * - The record's id is "user:<name>"; two custom items with one name must declare the same part.
 * - Prices carry their own ISO 4217 currency (never the request's `currency`).
 */
import { z } from 'zod';
import type { StoredEntity } from '../catalogue/entity.js';
import { readComm, type BusTable } from '../compatibility/buses.js';
import type { Role } from '../compatibility/roles.js';
import { lookupFlange, type FlangeRegistry } from '../knowledge/flange.js';
import { invalidInput } from '../shared/errors.js';
import { amountFromNumber, formatAmount, mulAmount } from './money.js';

export const CUSTOM_ROLES = ['host', 'actuator', 'sensor', 'power', 'structure', 'other'] as const;
export type CustomRole = (typeof CUSTOM_ROLES)[number];

/** The largest unit price of a user-declared part (same bound as an item price, src/domain/bom/schema.ts). */
const MAX_PRICE = 1e12;

/**
 * The declaration. Written compactly for tools/list (three tools carry it, issue 26's budget): the
 * bounds are checked by one refinement (each issue naming its field) instead of schema keywords.
 */
export const CustomPart = z
  .object({
    name: z.string(),
    role: z.enum(CUSTOM_ROLES),
    buses: z.array(z.string()).optional(),
    voltage_v: z.object({ min: z.number(), max: z.number() }).strict().optional(),
    price: z.object({ amount: z.number(), currency: z.string() }).strict().optional(),
    mass_kg: z.number().optional(),
    flange: z.string().optional(),
  })
  .strict()
  .superRefine((c, ctx) => {
    const bad = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    if (c.name.trim() === '' || c.name.length > 200) bad(['name'], 'must be 1 to 200 characters');
    if (c.buses && c.buses.length > 20) bad(['buses'], 'at most 20 buses');
    c.buses?.forEach((b, i) => {
      if (b.trim() === '' || b.length > 60) bad(['buses', i], 'must be 1 to 60 characters, e.g. USB, CAN, EtherCAT');
    });
    const v = c.voltage_v;
    if (v) {
      for (const k of ['min', 'max'] as const) if (!(v[k] >= 0 && v[k] <= 100_000)) bad(['voltage_v', k], 'volts from 0 to 100000');
      if (v.min > v.max) bad(['voltage_v', 'min'], 'min must not exceed max');
    }
    if (c.price) {
      if (!(c.price.amount >= 0 && c.price.amount <= MAX_PRICE)) bad(['price', 'amount'], `from 0 to ${MAX_PRICE}`);
      if (!/^[A-Z]{3}$/.test(c.price.currency)) bad(['price', 'currency'], 'an ISO 4217 code such as USD, EUR, CNY');
    }
    if (c.mass_kg !== undefined && !(c.mass_kg > 0 && c.mass_kg <= 100_000)) bad(['mass_kg'], 'kilograms, above 0 and at most 100000');
    if (c.flange !== undefined && (c.flange.trim() === '' || c.flange.length > 100)) bad(['flange'], 'a registered designation, e.g. ISO 9409-1-50-4-M6');
  })
  ;
export type CustomPart = z.infer<typeof CustomPart>;

/** How a custom role reads for the engine (see the file comment). */
export function engineRole(role: CustomRole): Role | null {
  if (role === 'structure') return 'passive';
  if (role === 'other') return null;
  return role;
}

export const customId = (c: Pick<CustomPart, 'name'>): string => `user:${c.name}`;

/** Decimal text of a JS number, exact (no binary noise: 0.082 kg -> "82" g). */
const grams = (kg: number): string => formatAmount(mulAmount(amountFromNumber(kg), 1000));

/** The declaration as a record the compatibility engine reads. Absent declarations stay absent. */
export function customEntity(c: CustomPart): StoredEntity {
  const buses = c.buses ?? [];
  const voltage = c.voltage_v ? `${c.voltage_v.min}~${c.voltage_v.max}V` : 'N/A';
  return {
    id: customId(c),
    name: c.name,
    name_en: c.name,
    category: 'user_declared',
    entity_kind: 'component',
    manufacturer: null,
    type: c.role,
    protocol: 'N/A',
    interface: buses.length > 0 ? buses.join(', ') : 'N/A',
    interfaces: [...buses],
    voltage,
    weight: c.mass_kg !== undefined ? `${grams(c.mass_kg)}g` : 'N/A',
    torque: '',
    ros_support: null,
    applications: [],
    price_range: null,
    standard: null,
    status: null,
    year: null,
    source_urls: [],
    source_tier: 'C',
    source_robot: null,
    source_license: null,
    oss: false,
    mechanical_interface: c.flange
      ? { status: 'declared', mount_type: null, flange: c.flange }
      : { status: 'not_declared', mount_type: null, flange: null },
    // The declared values the spec fields read (compare_parts): the voltage range and the mass.
    declared: { ...(c.voltage_v ? { voltage } : {}), ...(c.mass_kg !== undefined ? { weight: `${grams(c.mass_kg)}g` } : {}) },
    description: `Declared by the user (role ${c.role}).`,
    quarantine: false,
    quarantine_reason: null,
    duplicate_of: null,
    deep: { price: null, compatibility: [], confidence: null, sources: [], compliance: {}, localization_ratio: null },
  };
}

/** What a custom declaration is checked against: the shipped bus table and flange registry. */
export interface CustomRegistries {
  buses: BusTable;
  flanges: FlangeRegistry;
}

/**
 * Refuses what the registries do not know (invalid_input naming the field and the fix): a bus
 * data/buses.json does not recognise, a flange that is not registered, two custom items that share
 * a name but declare different parts. `field` is the item path, e.g. "items.3".
 */
export function validateCustomItems(items: readonly { custom?: CustomPart }[], reg: CustomRegistries, field = 'items'): void {
  const byName = new Map<string, { at: number; json: string }>();
  items.forEach((it, i) => {
    const c = it.custom;
    if (!c) return;
    const at = `${field}.${i}.custom`;
    (c.buses ?? []).forEach((b, j) => {
      const r = readComm(reg.buses, { protocol: 'N/A', interface: 'N/A', interfaces: [b] });
      if (r.unrecognized.length > 0 || (r.buses.length === 0 && r.protocols.length === 0)) {
        const known = reg.buses.file.buses.map((x) => x.aliases[0]).join(', ');
        throw invalidInput(`${at}.buses.${j}`, `"${b}" is not a bus or protocol data/buses.json recognises; use one of ${known} (or a protocol such as CANopen)`);
      }
    });
    if (c.flange !== undefined && lookupFlange(reg.flanges, c.flange) === null) {
      throw invalidInput(`${at}.flange`, `"${c.flange}" is not a registered flange designation; use one of ${reg.flanges.designations.map((d) => d.designation).join(', ')}, or leave flange out`);
    }
    const key = customId(c).toLowerCase();
    const json = JSON.stringify({ ...c, name: key });
    const prev = byName.get(key);
    if (prev && prev.json !== json) {
      throw invalidInput(`${at}.name`, `"${c.name}" also names item ${prev.at} with another declaration; give different parts different names`);
    }
    if (!prev) byName.set(key, { at: i, json });
  });
}

/** Item schema helper: exactly one of `id` and `custom`. */
export function oneOfIdOrCustom(v: { id?: string; custom?: unknown }, ctx: z.RefinementCtx): void {
  if ((v.id === undefined) === (v.custom === undefined)) {
    ctx.addIssue({
      code: 'custom',
      path: ['id'],
      message: v.id === undefined ? 'give id (a catalogue id) or custom (your own part)' : 'give id or custom, not both',
    });
  }
}
