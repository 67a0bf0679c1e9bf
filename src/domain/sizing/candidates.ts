/**
 * The catalogue half of size_actuators: actuators whose normalised rating (torque_rated for a
 * rotary joint, load_force for a prismatic one, read exactly by the spec layer) is at least
 * required × safety factor. A bound ("up to 5 N·m") never qualifies; a part whose rating is
 * unread or only a bound is a near miss; a part that declares none is counted, never offered.
 * Joints with similar needs are grouped so one part serves a group; the groups become BOM items.
 * Pure (the spec index is read, never changed).
 */
import type { StoredEntity } from '../catalogue/entity.js';
import type { SpecIndex } from '../specs/index.js';
import type { Spec } from '../specs/types.js';
import { specBounds } from '../specs/where.js';
import type { JointNeed, TorqueReport } from './torques.js';

export const PICKS = ['lightest', 'cheapest', 'strongest'] as const;
export type SizingPick = (typeof PICKS)[number];
export const SAFETY_FACTOR_DEFAULT = 1.5;
/** Candidates listed per joint (candidates_total counts all). */
export const CANDIDATES_LISTED = 3;
export const NEAR_MISSES_LISTED = 3;
/** Joints whose need is within this factor of the group's largest share one part. */
export const GROUP_RATIO = 2;
/** Needs below this (N·m or N) get no margin ratio. */
export const MARGIN_MIN_NEED = 1e-3;

export interface Offer {
  id: string;
  name: string;
  rating: { field: 'torque_rated' | 'load_force'; value: number; level: string; notation: string } | null;
  /** What the rating declares when it cannot qualify (unread, or a bound). */
  unreadRating: { field: string; notation: string; reason: string } | null;
  mass_kg: number | null;
  speed_rad_s: number | null;
  voltage: string | null;
  bus: string[];
  price_range: string | null;
  priceLow: number | null;
}

export type Candidate = {
  id: string;
  name: string;
  torque_rated_nm: number | null;
  force_rated_n: number | null;
  mass_kg: number | null;
  speed_rad_s: number | null;
  speed_ok: boolean | null;
  voltage: string | null;
  bus: string[];
  price_range: string | null;
  margin: number | null;
  level: string;
};

export type JointChoice = {
  candidates: Candidate[];
  candidates_total: number;
  near_misses: { id: string; declared: string; reason: string }[];
  near_misses_total: number;
  undeclared: number;
};

const first = (specs: readonly Spec[]) => specs.find((s) => s.qualifier === null && specBounds(s) !== null) ?? null;
const round = (x: number, d = 4) => Number(x.toFixed(d));

function ratingOf(index: SpecIndex, id: string, field: 'torque_rated' | 'load_force'): Pick<Offer, 'rating' | 'unreadRating'> {
  const specs = index.fieldSpecs(id, field);
  const s = first(specs);
  if (s) return { rating: { field, value: specBounds(s)!.lo.n, level: s.level, notation: s.notation }, unreadRating: null };
  const bound = specs.find((x) => x.qualifier !== null);
  if (bound) return { rating: null, unreadRating: { field, notation: bound.notation, reason: `declared as a bound (${bound.qualifier}): it cannot show the part holds the need` } };
  const u = index.fieldUnread(id, field)[0];
  return { rating: null, unreadRating: u ? { field, notation: u.notation, reason: u.reason } : null };
}

/** The catalogue actuators as sizing sees them (quarantined records left out). */
export function actuatorOffers(index: SpecIndex, records: readonly StoredEntity[], field: 'torque_rated' | 'load_force'): Offer[] {
  return records
    .filter((e) => !e.quarantine)
    .map((e) => {
      const mass = first(index.fieldSpecs(e.id, 'mass'));
      const speed = first(index.fieldSpecs(e.id, 'speed'));
      const voltage = first(index.fieldSpecs(e.id, 'voltage'));
      const bus = index.fieldSpecs(e.id, 'bus').find((s) => s.values !== null)?.values ?? [];
      const band = e.price_range ? /^\s*(\d+(?:\.\d+)?)\s*(?:-|~|–)/.exec(e.price_range) : null;
      return {
        id: e.id,
        name: e.name,
        ...ratingOf(index, e.id, field),
        mass_kg: mass ? specBounds(mass)!.lo.n : null,
        speed_rad_s: speed ? specBounds(speed)!.lo.n : null,
        voltage: voltage ? voltage.notation : null,
        bus: [...bus],
        price_range: e.price_range,
        priceLow: band ? Number(band[1]) : null,
      };
    });
}

const nullsLast = (a: number | null, b: number | null, dir: 1 | -1) => (a === null ? (b === null ? 0 : 1) : b === null ? -1 : dir * (a - b));

export function chooseFor(need: JointNeed, offers: readonly Offer[], safetyFactor: number, pick: SizingPick): JointChoice {
  const threshold = need.required * safetyFactor;
  const ok: Offer[] = [];
  const near: JointChoice['near_misses'] = [];
  let undeclared = 0;
  for (const o of offers) {
    if (o.rating) {
      if (o.rating.value >= threshold) ok.push(o);
    } else if (o.unreadRating) near.push({ id: o.id, declared: o.unreadRating.notation, reason: o.unreadRating.reason });
    else undeclared++;
  }
  ok.sort((a, b) => {
    const r =
      pick === 'lightest' ? nullsLast(a.mass_kg, b.mass_kg, 1) : pick === 'cheapest' ? nullsLast(a.priceLow, b.priceLow, 1) : nullsLast(a.rating!.value, b.rating!.value, -1);
    return r || a.rating!.value - b.rating!.value || a.id.localeCompare(b.id);
  });
  const candidates = ok.slice(0, CANDIDATES_LISTED).map((o): Candidate => {
    const rated = o.rating!.value;
    return {
      id: o.id,
      name: o.name,
      torque_rated_nm: o.rating!.field === 'torque_rated' ? rated : null,
      force_rated_n: o.rating!.field === 'load_force' ? rated : null,
      mass_kg: o.mass_kg,
      speed_rad_s: o.speed_rad_s,
      speed_ok: o.speed_rad_s === null || need.urdf_velocity === null || need.joint_type === 'prismatic' ? null : o.speed_rad_s >= need.urdf_velocity,
      voltage: o.voltage,
      bus: o.bus,
      price_range: o.price_range,
      // Below 1 mN·m (a joint whose axis is along gravity) a ratio says nothing: null.
      margin: need.required < MARGIN_MIN_NEED ? null : round(rated / need.required, 2),
      level: o.rating!.level,
    };
  });
  return { candidates, candidates_total: ok.length, near_misses: near.slice(0, NEAR_MISSES_LISTED), near_misses_total: near.length, undeclared };
}

export interface JointGroup {
  joints: string[];
  /** The largest need of the group: the part chosen for it holds every joint of the group. */
  required: number;
  unit: 'N·m' | 'N';
  part: { id: string; name: string } | null;
}

/**
 * Groups: joints in decreasing need; a group takes every next joint of the same unit whose need
 * is at least 1/GROUP_RATIO of the group's largest, and the part chosen for that largest need (it
 * holds every joint of the group: their needs are smaller).
 */
export function groupJoints(needs: readonly JointNeed[], choose: (n: JointNeed) => JointChoice): JointGroup[] {
  const sorted = [...needs].sort((a, b) => b.required - a.required || a.joint_name.localeCompare(b.joint_name));
  const groups: JointGroup[] = [];
  for (const n of sorted) {
    // A joint no part holds never joins a group that has a part, nor the reverse.
    const served = choose(n).candidates.length > 0;
    const g = groups.find((x) => x.unit === n.unit && n.required * GROUP_RATIO >= x.required && (x.part !== null) === served);
    if (g) g.joints.push(n.joint_name);
    else {
      const c = choose(n).candidates[0];
      groups.push({ joints: [n.joint_name], required: n.required, unit: n.unit, part: c ? { id: c.id, name: c.name } : null });
    }
  }
  return groups;
}

export type { TorqueReport };
