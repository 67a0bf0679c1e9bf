/**
 * The bus facts table (data/buses.json) and the reading of an entity's communication fields
 * (protocol, interface, interfaces) into recognised buses and protocols.
 *
 * Reading rules:
 * - "N/A" and empty strings are absent.
 * - A field is split on ',', ';' and '/', but a '/'-joined run that is itself a known written form
 *   ("EtherNet/IP", "TCP/IP", "Modbus/TCP", "ROS/ROS2") is kept whole (longest run first).
 * - A piece matches a bus or protocol when it equals one of its written forms after folding case,
 *   whitespace, '-' and '_' ("CAN-FD" = "CAN FD" = "canfd"), or a pattern of the table.
 * - SDK / API / ROS mentions belong to the software dimension and are skipped here.
 * - A piece carrying a vendor-specific marker ("custom CAN", "EtherCAT/proprietary", "Tesla
 *   proprietary") is a vendor-specific protocol; the rest of the piece is read as its bus when it
 *   is one ("custom CAN" -> bus CAN + vendor-specific framing).
 * - Anything else is `unrecognized` and reported, never guessed.
 */
import { z } from 'zod';
import type { StoredEntity } from '../catalogue/entity.js';
import { ROLES } from './roles.js';
import { isSoftwareMention, rosMention } from './software-tokens.js';
import { memoReading } from '../shared/memo.js';
import { PARSE_ONCE } from '../shared/parse-once.js';

const BUS_KINDS = ['fieldbus', 'network', 'serial', 'host', 'wireless', 'board'] as const;

export const BusTableFile = z
  .object({
    meta: z.object({ name: z.string(), description: z.string(), license: z.string(), basis: z.string(), roles: z.string(), kinds: z.record(z.string(), z.string()) }).strict(),
    vendor_specific_markers: z.array(z.string().min(1)),
    buses: z.array(
      z
        .object({
          id: z.string().regex(/^[a-z0-9_]+$/),
          name: z.string(),
          family: z.string(),
          kind: z.enum(BUS_KINDS),
          aliases: z.array(z.string().min(1)).min(1),
          patterns: z.array(z.string()).optional(),
        })
        .strict(),
    ),
    protocols: z.array(
      z
        .object({
          id: z.string().regex(/^[a-z0-9_]+$/),
          name: z.string(),
          family: z.string(),
          layer: z.enum(['application', 'transport']),
          carriers: z.array(z.string()),
          aliases: z.array(z.string().min(1)).min(1),
        })
        .strict(),
    ),
    relations: z.array(
      z
        .object({
          between: z.tuple([z.string(), z.string()]),
          verdict: z.enum(['compatible', 'adapter_required']),
          via: z.string().optional(),
          condition: z.string().optional(),
          /** The relation holds only when the side on `bus` has one of `roles` (e.g. the Ethernet side is the host). */
          requires_role: z.object({ bus: z.string(), roles: z.array(z.enum(ROLES)).min(1) }).strict().optional(),
        })
        .strict(),
    ),
    /** Real products and standard adapters that link buses, each with the snapshot record that names it. */
    bridges: z.array(
      z
        .object({
          id: z.string().regex(/^[a-z0-9_]+$/),
          name: z.string().min(1),
          kind: z.enum(['product', 'standard_adapter']),
          maker: z.string().nullable(),
          sides: z.tuple([z.array(z.string()).min(1), z.array(z.string()).min(1)]),
          /** The side (0 or 1) that must be a host or bus master (a USB interface needs a USB host). */
          host_side: z.union([z.literal(0), z.literal(1)]).nullable(),
          evidence: z.object({ file: z.string(), record: z.string(), names: z.string().min(1), note: z.string() }).strict(),
        })
        .strict(),
    ),
  })
  .strict();
export type BusTableFile = z.infer<typeof BusTableFile>;
export type BusDef = BusTableFile['buses'][number];
export type ProtocolDef = BusTableFile['protocols'][number];
export type BusRelation = BusTableFile['relations'][number];
export type BusBridge = BusTableFile['bridges'][number];

export interface BusTable {
  file: BusTableFile;
  bus(id: string): BusDef;
  protocol(id: string): ProtocolDef;
  /** Relation between two bus ids, in either order. */
  relation(a: string, b: string): BusRelation | null;
  /** Bridge rows linking bus x on one side to bus y on the other, with the side x is on. */
  bridgesBetween(x: string, y: string): { bridge: BusBridge; sideOfX: 0 | 1 }[];
  /** Folded written form -> bus or protocol. */
  readonly forms: ReadonlyMap<string, { type: 'bus'; def: BusDef } | { type: 'protocol'; def: ProtocolDef }>;
  readonly patterns: readonly { re: RegExp; def: BusDef }[];
  /** Longest number of '/'-separated pieces in any written form. */
  readonly maxSlashRun: number;
}

/** Folds a written form for matching: NFKC, lower case, no whitespace, '-' or '_'. */
export function foldForm(s: string): string {
  return s
    .normalize('NFKC')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
}

export function parseBusTable(raw: unknown): BusTable {
  const file = BusTableFile.parse(raw, PARSE_ONCE);
  const buses = new Map(file.buses.map((b) => [b.id, b]));
  const protocols = new Map(file.protocols.map((p) => [p.id, p]));
  if (buses.size !== file.buses.length) throw new Error('bus table: duplicate bus id');
  if (protocols.size !== file.protocols.length) throw new Error('bus table: duplicate protocol id');
  for (const p of file.protocols) {
    for (const c of p.carriers) if (!buses.has(c)) throw new Error(`bus table: protocol ${p.id} names unknown carrier ${c}`);
  }
  for (const r of file.relations) {
    for (const id of r.between) if (!buses.has(id)) throw new Error(`bus table: relation names unknown bus ${id}`);
    if (r.verdict === 'adapter_required' && !r.via) throw new Error(`bus table: relation ${r.between.join('/')} needs "via"`);
    if (r.verdict === 'compatible' && !r.condition) throw new Error(`bus table: relation ${r.between.join('/')} needs "condition"`);
    if (r.requires_role && !r.between.includes(r.requires_role.bus)) throw new Error(`bus table: relation ${r.between.join('/')} requires a role on ${r.requires_role.bus}, which it does not link`);
  }
  const bridgeIds = new Set<string>();
  for (const b of file.bridges) {
    if (bridgeIds.has(b.id)) throw new Error(`bus table: duplicate bridge id ${b.id}`);
    bridgeIds.add(b.id);
    for (const id of b.sides.flat()) if (!buses.has(id)) throw new Error(`bus table: bridge ${b.id} names unknown bus ${id}`);
    if (b.sides[0].some((x) => b.sides[1].includes(x))) throw new Error(`bus table: bridge ${b.id} has a bus on both sides`);
  }
  const forms = new Map<string, { type: 'bus'; def: BusDef } | { type: 'protocol'; def: ProtocolDef }>();
  let maxSlashRun = 1;
  const add = (form: string, v: { type: 'bus'; def: BusDef } | { type: 'protocol'; def: ProtocolDef }) => {
    const k = foldForm(form);
    const prev = forms.get(k);
    if (prev && prev.def.id !== v.def.id) throw new Error(`bus table: written form "${form}" is claimed by ${prev.def.id} and ${v.def.id}`);
    forms.set(k, v);
    maxSlashRun = Math.max(maxSlashRun, form.split('/').length);
  };
  for (const b of file.buses) for (const a of b.aliases) add(a, { type: 'bus', def: b });
  for (const p of file.protocols) for (const a of p.aliases) add(a, { type: 'protocol', def: p });
  const patterns = file.buses.flatMap((b) => (b.patterns ?? []).map((p) => ({ re: new RegExp(p), def: b })));
  return {
    file,
    bus: (id) => {
      const b = buses.get(id);
      if (!b) throw new Error(`unknown bus ${id}`);
      return b;
    },
    protocol: (id) => {
      const p = protocols.get(id);
      if (!p) throw new Error(`unknown protocol ${id}`);
      return p;
    },
    relation: (a, b) => file.relations.find((r) => (r.between[0] === a && r.between[1] === b) || (r.between[0] === b && r.between[1] === a)) ?? null,
    bridgesBetween: (x, y) =>
      file.bridges.flatMap((bridge): { bridge: BusBridge; sideOfX: 0 | 1 }[] =>
        bridge.sides[0].includes(x) && bridge.sides[1].includes(y)
          ? [{ bridge, sideOfX: 0 as const }]
          : bridge.sides[1].includes(x) && bridge.sides[0].includes(y)
            ? [{ bridge, sideOfX: 1 as const }]
            : [],
      ),
    forms,
    patterns,
    maxSlashRun,
  };
}



// ---------------------------------------------------------------------------------------------
// Reading an entity
// ---------------------------------------------------------------------------------------------

/** A vendor-specific protocol read from a piece such as "custom CAN" or "Tesla proprietary". */
export interface VendorProtocol {
  written: string;
  /** The bus named in the same piece, when there is one. */
  bus: string | null;
}

export interface CommReading {
  /** Declared bus ids (in order of first appearance). */
  buses: string[];
  /** Bus ids implied by a single-carrier protocol when the side declares no bus at all. */
  implied: string[];
  /** Recognised protocol ids. */
  protocols: string[];
  vendorSpecific: VendorProtocol[];
  unrecognized: string[];
}

const isAbsent = (s: string) => s.trim() === '' || /^n\/?a$/i.test(s.trim());

function matchForm(table: BusTable, piece: string) {
  const k = foldForm(piece);
  const hit = table.forms.get(k);
  if (hit) return hit;
  const p = table.patterns.find((x) => x.re.test(k));
  return p ? ({ type: 'bus', def: p.def } as const) : null;
}

/** Splits one field value into pieces, keeping '/'-joined known forms whole. */
/**
 * Whether a slash run lists several software items rather than naming one: one of its parts is a
 * ROS mention, or its first part is a software mention on its own ("ROS2/Orbbec SDK" is two
 * items, "Linux SDK/ROS" too; "C/C++ SDK" is one SDK).
 */
function splitsIntoMentions(parts: readonly string[]): boolean {
  return parts.some((p) => rosMention(p) !== null) || isSoftwareMention(parts[0]!);
}

export function splitPieces(table: BusTable, value: string): string[] {
  const out: string[] = [];
  for (const chunk of value.split(/[,;]/)) {
    const parts = chunk.split('/').map((p) => p.trim());
    let i = 0;
    while (i < parts.length) {
      let taken = 1;
      for (let n = Math.min(table.maxSlashRun, parts.length - i); n > 1; n--) {
        const run = parts.slice(i, i + n).join('/');
        if (matchForm(table, run) || (isSoftwareMention(run) && !splitsIntoMentions(parts.slice(i, i + n)))) {
          taken = n;
          break;
        }
      }
      const piece = parts.slice(i, i + taken).join('/').trim();
      if (piece !== '') out.push(piece);
      i += taken;
    }
  }
  return out;
}

function markerRest(table: BusTable, piece: string): string | null {
  const words = piece.split(/\s+/);
  const markers = new Set(table.file.vendor_specific_markers.map((m) => m.toLowerCase()));
  if (!words.some((w) => markers.has(w.toLowerCase()))) return null;
  return words.filter((w) => !markers.has(w.toLowerCase())).join(' ');
}

/** The communication reading of one entity: protocol, interface and interfaces fields (read once per record, frozen). */
export const readComm: (table: BusTable, e: Pick<StoredEntity, 'protocol' | 'interface' | 'interfaces'>) => CommReading = memoReading(readCommOnce);

function readCommOnce(table: BusTable, e: Pick<StoredEntity, 'protocol' | 'interface' | 'interfaces'>): CommReading {
  const r: CommReading = { buses: [], implied: [], protocols: [], vendorSpecific: [], unrecognized: [] };
  const pushU = <T>(arr: T[], v: T) => {
    if (!arr.includes(v)) arr.push(v);
  };
  const values = [e.protocol, e.interface, ...e.interfaces].filter((v) => !isAbsent(v));
  for (const value of values) {
    for (const piece of splitPieces(table, value)) {
      if (isSoftwareMention(piece)) continue;
      const hit = matchForm(table, piece);
      if (hit?.type === 'bus') {
        pushU(r.buses, hit.def.id);
        continue;
      }
      if (hit?.type === 'protocol') {
        pushU(r.protocols, hit.def.id);
        continue;
      }
      const rest = markerRest(table, piece);
      if (rest !== null) {
        const bus = rest === '' ? null : matchForm(table, rest);
        const busId = bus?.type === 'bus' ? bus.def.id : null;
        if (busId) pushU(r.buses, busId);
        if (!r.vendorSpecific.some((v) => v.written === piece)) r.vendorSpecific.push({ written: piece, bus: busId });
        continue;
      }
      pushU(r.unrecognized, piece);
    }
  }
  if (r.buses.length === 0) {
    for (const pid of r.protocols) {
      const carriers = table.protocol(pid).carriers;
      if (carriers.length === 1) pushU(r.implied, carriers[0]);
    }
  }
  return r;
}
