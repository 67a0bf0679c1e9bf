/**
 * Mechanical dimension: flange rulings between the registered ISO 9409-1 designations each side
 * declares (mechanical_interface.flanges, or the single mechanical_interface.flange). A side may
 * declare several (a vendor listing alternative couplings); every combination is ruled and the best
 * one answers:
 * - a combination that is identity or direct -> compatible (the shared bolt pattern is named);
 * - otherwise, every combination needs an adapter plate -> adapter_required, the plate of the first
 *   combination named with both bolt patterns;
 * - either side without a registered designation -> unknown. Nothing else (mount type, status) is
 *   turned into a verdict: it is reported as evidence only.
 */
import type { StoredEntity } from '../catalogue/entity.js';
import { ruleFlange, type FlangeRegistry, type FlangeRulingRecord } from '../knowledge/flange.js';
import { ev, type MechanicalResult } from './types.js';
import { platePointer } from '../plates/links.js';

/** The registered designations a record declares (the list, else the single field). */
export function declaredFlanges(e: StoredEntity): string[] {
  const mi = e.mechanical_interface;
  if (mi.flanges && mi.flanges.length > 0) return mi.flanges;
  return mi.flange !== null && mi.flange.trim() !== '' ? [mi.flange] : [];
}

/**
 * The registered flanges a part declaring `declared` mates only through an adapter plate (no
 * declared flange of it is the same pattern or lines up directly), each as the pair of the plate
 * to draw: [its first registered declared flange, the other]. Empty when it declares none registered.
 */
export function adapterMates(flanges: FlangeRegistry, mi: { flange: string | null; flanges?: string[] | null }): { a: string; b: string }[] {
  const declared = mi.flanges && mi.flanges.length > 0 ? mi.flanges : mi.flange !== null && mi.flange.trim() !== '' ? [mi.flange] : [];
  const own = flanges.designations.filter((d) => declared.some((x) => ruleFlange(flanges, x, d.designation).verdict === 'identity'));
  if (own.length === 0) return [];
  const out: { a: string; b: string }[] = [];
  for (const o of flanges.designations) {
    const rulings = own.map((d) => ruleFlange(flanges, d.designation, o.designation));
    if (rulings.every((r) => r.verdict === 'adapter_required')) out.push({ a: own[0]!.designation, b: o.designation });
  }
  return out;
}

export function mechanicalDimension(a: StoredEntity, b: StoredEntity, flanges: FlangeRegistry, baseUrl: string | null = null): MechanicalResult {
  const fa = declaredFlanges(a);
  const fb = declaredFlanges(b);
  const evidence = (['a', 'b'] as const).flatMap((s) => {
    const e = s === 'a' ? a : b;
    const mi = e.mechanical_interface;
    return [
      ev(s, 'mechanical_interface.flanges', s === 'a' ? fa : fb, e),
      ev(s, 'mechanical_interface.status', mi.status),
      ev(s, 'mechanical_interface.mount_type', mi.mount_type),
    ];
  });
  const detailOf = (ruling: MechanicalResult['detail']['ruling']) => ({
    flange_a: fa.length === 1 ? fa[0]! : fa.length > 1 ? fa.join(' | ') : null,
    flange_b: fb.length === 1 ? fb[0]! : fb.length > 1 ? fb.join(' | ') : null,
    ruling,
    adapter_plate: ruling?.verdict === 'adapter_required' ? platePointer(baseUrl, ruling.pair[0], ruling.pair[1]) : null,
  });
  const none = [fa.length === 0 ? 'a' : null, fb.length === 0 ? 'b' : null].filter((x) => x !== null);
  if (none.length > 0) {
    const status = (s: string) => (s === 'a' ? a : b).mechanical_interface.status;
    return {
      verdict: 'unknown',
      reason: `${none.map((s) => `${s} declares no registered flange designation (mechanical_interface.status: ${status(s)})`).join('; ')}: there is nothing to rule on.`,
      evidence,
      conditions: [],
      adapters: [],
      detail: detailOf(null),
    };
  }
  const rulings: FlangeRulingRecord[] = [];
  for (const x of fa) {
    for (const y of fb) {
      const r = ruleFlange(flanges, x, y);
      if (r.verdict === 'unknown') {
        return { verdict: 'unknown', reason: r.reason, evidence, conditions: [], adapters: [], detail: detailOf(r) };
      }
      rulings.push(r);
    }
  }
  const options = (s: 'a' | 'b', list: string[]) => (list.length > 1 ? ` (${s} lists ${list.length} alternative flanges: ${list.join(', ')})` : '');
  const direct = rulings.find((r) => r.verdict === 'identity') ?? rulings.find((r) => r.verdict === 'direct');
  if (direct) {
    return {
      verdict: 'compatible',
      reason: `${direct.reason}${direct.verdict === 'identity' ? ` Shared flange: ${direct.pair[0]}.` : ''}${options('a', fa)}${options('b', fb)}`,
      evidence,
      conditions: [
        ...(direct.fastener_note ? [direct.fastener_note] : []),
        ...(fa.length > 1 || fb.length > 1 ? [`Use the ${direct.pair[0]} option on a and the ${direct.pair[1]} option on b (the vendor's coupling for that pattern).`] : []),
        'The bolt patterns match; thread engagement depth, flange thickness and centre bore are not in the data and need checking against both drawings.',
      ],
      adapters: [],
      detail: detailOf(direct),
    };
  }
  const ruling = rulings[0]!;
  return {
    verdict: 'adapter_required',
    reason: `${ruling.reason}${options('a', fa)}${options('b', fb)}`,
    evidence,
    conditions: [],
    adapters: [`Flange adapter plate: ${ruling.fastener_note} Drawn by design_adapter_plate (${platePointer(baseUrl, ruling.pair[0], ruling.pair[1]).uri}).`],
    detail: detailOf(ruling),
  };
}
