/**
 * Mechanical dimension: flange rulings when both sides declare a flange designation in
 * mechanical_interface.flange. identity / direct -> compatible; adapter_required -> adapter_required;
 * either side without a designation, or with an unregistered one -> unknown. Nothing else (mount
 * type, status) is turned into a verdict: it is reported as evidence only.
 */
import type { StoredEntity } from '../entity.js';
import { ruleFlange, type FlangeRegistry } from '../flange.js';
import { ev, type MechanicalResult } from './types.js';

export function mechanicalDimension(a: StoredEntity, b: StoredEntity, flanges: FlangeRegistry): MechanicalResult {
  const fa = a.mechanical_interface.flange;
  const fb = b.mechanical_interface.flange;
  const evidence = (['a', 'b'] as const).flatMap((s) => {
    const mi = (s === 'a' ? a : b).mechanical_interface;
    return [ev(s, 'mechanical_interface.flange', mi.flange), ev(s, 'mechanical_interface.status', mi.status), ev(s, 'mechanical_interface.mount_type', mi.mount_type)];
  });
  const none = [fa === null || fa.trim() === '' ? 'a' : null, fb === null || fb.trim() === '' ? 'b' : null].filter((x) => x !== null);
  if (none.length > 0) {
    const status = (s: string) => (s === 'a' ? a : b).mechanical_interface.status;
    return {
      verdict: 'unknown',
      reason: `${none.map((s) => `${s} declares no flange designation (mechanical_interface.status: ${status(s)})`).join('; ')}: there is nothing to rule on.`,
      evidence,
      conditions: [],
      adapters: [],
      detail: { flange_a: fa, flange_b: fb, ruling: null },
    };
  }
  const ruling = ruleFlange(flanges, fa as string, fb as string);
  if (ruling.verdict === 'unknown') {
    return { verdict: 'unknown', reason: ruling.reason, evidence, conditions: [], adapters: [], detail: { flange_a: fa, flange_b: fb, ruling } };
  }
  if (ruling.verdict === 'adapter_required') {
    return {
      verdict: 'adapter_required',
      reason: ruling.reason,
      evidence,
      conditions: [],
      adapters: [`Flange adapter plate: ${ruling.fastener_note}`],
      detail: { flange_a: fa, flange_b: fb, ruling },
    };
  }
  return {
    verdict: 'compatible',
    reason: ruling.reason,
    evidence,
    conditions: [
      ...(ruling.fastener_note ? [ruling.fastener_note] : []),
      'The bolt patterns match; thread engagement depth, flange thickness and centre bore are not in the data and need checking against both drawings.',
    ],
    adapters: [],
    detail: { flange_a: fa, flange_b: fb, ruling },
  };
}
