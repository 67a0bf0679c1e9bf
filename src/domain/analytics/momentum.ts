/**
 * Momentum (0-100) of one record by the method in data/analytics/momentum.json: a weighted mean of
 * the measured signals (each 0..1), unmeasured signals left out and the other weights rescaled.
 * The breakdown's contributions add up exactly to the score (largest-remainder rounding in tenths).
 */
import type { Adoption } from './adoption.js';
import { SIGNAL_NAMES, type MomentumMethod, type SignalName } from './tables.js';

export interface MomentumInput {
  entity_kind: string;
  year: number | null;
  ros_support: boolean | null;
  source_tier: 'A' | 'B' | 'C';
  source_urls: readonly string[];
}

export type Colour = 'green' | 'yellow' | 'red';

export interface SignalEntry {
  signal: SignalName;
  /** The measured value (year, robots/quantity, tier, url count, ros flag); null when not measured. */
  value: unknown;
  measured: boolean;
  /** 0..1 when measured. */
  score: number | null;
  /** Weight from the method table. */
  weight: number;
  /** Weight after rescaling over the measured signals (0 when not measured). */
  effective_weight: number;
  /** Points this signal adds to the momentum (tenths precision); 0 when not measured. */
  contribution: number;
  note: string;
}

export interface MomentumResult {
  momentum: number | null;
  colour: Colour | null;
  /** Why momentum is null; null when it is set. */
  reason: string | null;
  signals: SignalEntry[];
}

const r6 = (x: number) => Math.round(x * 1e6) / 1e6;

export function colourFor(momentum: number, method: MomentumMethod): Colour {
  if (momentum >= method.colours.green) return 'green';
  if (momentum >= method.colours.yellow) return 'yellow';
  return 'red';
}

/** Splits total tenths over raw tenths by largest remainder (ties: earlier signal first). */
function apportion(raw: number[], total: number): number[] {
  const floors = raw.map((x) => Math.floor(x + 1e-9));
  let left = total - floors.reduce((a, b) => a + b, 0);
  const order = raw.map((x, i) => ({ i, rem: x - floors[i]! })).sort((a, b) => b.rem - a.rem || a.i - b.i);
  for (const o of order) {
    if (left <= 0) break;
    if (raw[o.i]! === 0) continue;
    floors[o.i]! += 1;
    left -= 1;
  }
  return floors;
}

export function momentumFor(e: MomentumInput, adoption: Adoption | null, method: MomentumMethod, referenceYear: number | null): MomentumResult {
  const s = method.signals;
  const measured: Record<SignalName, { value: unknown; score: number | null; note: string }> = {
    recency:
      e.year !== null && referenceYear !== null
        ? {
            value: e.year,
            score: Math.min(1, Math.max(0, 1 - (referenceYear - e.year) / s.recency.window_years)),
            note: `declared year ${e.year}, reference year ${referenceYear}, window ${s.recency.window_years} years`,
          }
        : { value: e.year, score: null, note: e.year === null ? 'no year declared' : 'the dataset has no reference date' },
    adoption:
      adoption !== null && s.adoption.applies_to_kinds.includes(e.entity_kind)
        ? {
            value: { robots: adoption.robots, robot_count: adoption.robots.length, quantity: adoption.quantity, lines: adoption.lines, model_tokens: adoption.tokens },
            score: Math.min(adoption.robots.length, s.adoption.full_at_robots) / s.adoption.full_at_robots,
            note:
              adoption.robots.length === 0
                ? adoption.tokens.length === 0
                  ? 'no model token in the name to look for; no open-source robot BOM names it'
                  : `no open-source robot BOM names ${adoption.tokens.join(' / ')}`
                : `named in the BOM of ${adoption.robots.length} open-source robot(s), quantity ${adoption.quantity}${adoption.quantity_unstated ? ` (+${adoption.quantity_unstated} line(s) without a quantity)` : ''}`,
          }
        : { value: null, score: null, note: `not applicable to entity_kind ${e.entity_kind}` },
    ros_support:
      e.ros_support === null
        ? { value: null, score: null, note: 'ROS support not declared' }
        : { value: e.ros_support, score: e.ros_support ? 1 : 0, note: e.ros_support ? 'declares ROS support' : 'declares no ROS support' },
    source_tier: { value: e.source_tier, score: s.source_tier.tiers[e.source_tier], note: `source tier ${e.source_tier}` },
    source_breadth: {
      value: e.source_urls.length,
      score: Math.min(e.source_urls.length, s.source_breadth.full_at_urls) / s.source_breadth.full_at_urls,
      note: `${e.source_urls.length} source URL(s)`,
    },
  };
  const movement = method.minimum.movement_signals.some((name) =>
    name === 'adoption' ? (measured.adoption.score ?? 0) > 0 : measured[name].score !== null,
  );
  const notApplicable = method.not_applicable_kinds.kinds.includes(e.entity_kind);
  const present = SIGNAL_NAMES.filter((n) => measured[n].score !== null);
  const wsum = present.reduce((a, n) => a + s[n].weight, 0);
  if (notApplicable || !movement || wsum === 0) {
    return {
      momentum: null,
      colour: null,
      reason: notApplicable
        ? `entity_kind ${e.entity_kind}: ${method.not_applicable_kinds.reason}`
        : 'Too few signals: no declared release year and no use by an open-source robot, so nothing measures movement (tier, sources and ROS support alone do not).',
      signals: SIGNAL_NAMES.map((n) => ({
        signal: n,
        value: measured[n].value,
        measured: measured[n].score !== null,
        score: measured[n].score === null ? null : r6(measured[n].score!),
        weight: s[n].weight,
        effective_weight: 0,
        contribution: 0,
        note: measured[n].note,
      })),
    };
  }
  const rawTenths = SIGNAL_NAMES.map((n) => (measured[n].score === null ? 0 : (1000 * s[n].weight * measured[n].score!) / wsum));
  const totalTenths = Math.round(rawTenths.reduce((a, b) => a + b, 0) + 1e-9);
  const parts = apportion(rawTenths, totalTenths);
  const momentum = totalTenths / 10;
  return {
    momentum,
    colour: colourFor(momentum, method),
    reason: null,
    signals: SIGNAL_NAMES.map((n, i) => ({
      signal: n,
      value: measured[n].value,
      measured: measured[n].score !== null,
      score: measured[n].score === null ? null : r6(measured[n].score!),
      weight: s[n].weight,
      effective_weight: measured[n].score === null ? 0 : r6(s[n].weight / wsum),
      contribution: parts[i]! / 10,
      note: measured[n].note,
    })),
  };
}
