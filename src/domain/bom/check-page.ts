/**
 * check_bom's answer within its budget, by design: the whole check (src/domain/bom/check.ts) is
 * grouped and paged, never cut.
 *
 * - `finding_groups`: every finding counted per rule (kind), dimension and severity, with the
 *   number of parts involved and the first part ids as examples; always whole.
 * - `findings`: one page of the findings, at most FINDINGS_PAGE_CHARS characters of JSON, in the
 *   check's order. A finding too large for half a page (an unknown dimension over hundreds of
 *   parts) is split into part ranges (`part_range`): each range carries its parts, their evidence
 *   and the detail entries keyed by their ids. `next_cursor` fetches the next page (null on the last).
 * The pages are a function of the check alone, so a cursor names the same findings on every call.
 */
import { z } from 'zod';
import { DomainError } from '../shared/errors.js';
import { BomCheckResult, Finding, FINDING_DIMENSIONS, FINDING_KINDS, SEVERITIES } from './check.js';

/** Characters of JSON a tool answer holds at most (the README's answer budget). */
export const ANSWER_BUDGET_CHARS = 200_000;
/** Characters of JSON one page of findings holds at most; less when the rest of the answer (500 lines' parts) needs it. */
export const FINDINGS_PAGE_CHARS = 100_000;
/** A page never shrinks below this (the rest of an answer is at most ~140,000 characters at 500 lines). */
const MIN_PAGE_CHARS = 2_000;
/** Part ids a finding group names as examples. */
export const GROUP_EXAMPLES = 3;

export const PagedFinding = Finding.extend({
  part_range: z
    .object({ from: z.number().int(), to: z.number().int(), of: z.number().int() })
    .strict()
    .optional(),
});
export type PagedFinding = z.infer<typeof PagedFinding>;

export const FindingGroup = z
  .object({
    kind: z.enum(FINDING_KINDS),
    dimension: z.enum(FINDING_DIMENSIONS),
    severity: z.enum(SEVERITIES),
    findings: z.number().int(),
    parts: z.number().int(),
    examples: z.array(z.string()),
  })
  .strict();

export const BomCheckAnswer = BomCheckResult.extend({
  findings: z.array(PagedFinding),
  finding_groups: z.array(FindingGroup),
  pages: z.number().int(),
  next_cursor: z.string().nullable(),
});
export type BomCheckAnswer = z.infer<typeof BomCheckAnswer>;

const size = (x: unknown) => JSON.stringify(x).length;

/** A finding split into part ranges that each fit in half a page (or whole when it does). */
function units(f: Finding, pageChars: number): PagedFinding[] {
  const whole = size(f);
  if (whole <= pageChars / 2 || f.parts.length <= 1) return [f];
  // Ranges of `per` parts; halved while a range of several parts is still over half a page (the
  // first range also carries the detail not keyed by part, so sizes are not proportional).
  let per = Math.max(1, Math.floor((f.parts.length * (pageChars / 4)) / whole));
  for (;;) {
    const out = ranges(f, per);
    if (per === 1 || out.every((u) => u.parts.length <= 1 || size(u) <= pageChars / 2)) return out;
    per = Math.max(1, Math.floor(per / 2));
  }
}

function ranges(f: Finding, per: number): PagedFinding[] {
  const partIds = new Set(f.parts.map((p) => p.id));
  const out: PagedFinding[] = [];
  for (let from = 0; from < f.parts.length; from += per) {
    const parts = f.parts.slice(from, from + per);
    const ids = new Set(parts.map((p) => p.id));
    // Evidence of these parts; evidence of ids that are not parts (none today) goes with the first range.
    const evidence = f.evidence.filter((e) => ids.has(e.id) || (from === 0 && !partIds.has(e.id)));
    const detail: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(f.detail)) {
      const keyed = v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0 && Object.keys(v).every((id) => partIds.has(id));
      if (keyed) detail[k] = Object.fromEntries(Object.entries(v as Record<string, unknown>).filter(([id]) => ids.has(id)));
      else if (from === 0) detail[k] = v;
    }
    out.push({ ...f, parts, evidence, detail, part_range: { from, to: from + parts.length, of: f.parts.length } });
  }
  return out;
}

/** The pages of a check's findings (each at most pageChars of JSON unless one range alone is larger). */
export function findingPages(findings: readonly Finding[], pageChars = FINDINGS_PAGE_CHARS): PagedFinding[][] {
  const pages: PagedFinding[][] = [[]];
  let used = 2;
  for (const u of findings.flatMap((f) => units(f, pageChars))) {
    const n = size(u) + 1;
    if (used + n > pageChars && pages[pages.length - 1]!.length > 0) {
      pages.push([]);
      used = 2;
    }
    pages[pages.length - 1]!.push(u);
    used += n;
  }
  return pages;
}

/** Every finding counted per kind, dimension and severity (in order of first appearance). */
export function findingGroups(findings: readonly Finding[]): z.infer<typeof FindingGroup>[] {
  const groups = new Map<string, { g: z.infer<typeof FindingGroup>; ids: Set<string> }>();
  for (const f of findings) {
    const k = `${f.kind}|${f.dimension}|${f.severity}`;
    let e = groups.get(k);
    if (!e) groups.set(k, (e = { g: { kind: f.kind, dimension: f.dimension, severity: f.severity, findings: 0, parts: 0, examples: [] }, ids: new Set() }));
    e.g.findings++;
    for (const p of f.parts) {
      if (e.ids.has(p.id)) continue;
      e.ids.add(p.id);
      if (e.g.examples.length < GROUP_EXAMPLES) e.g.examples.push(p.id);
    }
    e.g.parts = e.ids.size;
  }
  return [...groups.values()].map((e) => e.g);
}

/** The answer for one page (`cursor`: a page number as next_cursor gave it; absent: the first). */
export function pageBomCheck(result: BomCheckResult, cursor: string | undefined): BomCheckAnswer {
  const finding_groups = findingGroups(result.findings);
  // The page is what the budget leaves after the rest of the answer (cursor and counts at their longest).
  const rest = size({ ...result, findings: [], finding_groups, pages: 999999, next_cursor: '999999' });
  // Never more than the budget leaves (500 lines' parts and connections can take ~190,000 characters):
  // a smaller page means more pages, not a larger answer.
  const pages = findingPages(result.findings, Math.min(FINDINGS_PAGE_CHARS, Math.max(MIN_PAGE_CHARS, ANSWER_BUDGET_CHARS - rest)));
  const at = cursor === undefined ? 0 : /^\d{1,6}$/.test(cursor) ? Number(cursor) : -1;
  if (at < 0 || at >= pages.length) {
    throw new DomainError('invalid_input', `cursor: "${cursor}" names no page of this check (pages 0-${pages.length - 1}); pass the next_cursor of a previous answer for the same items, or leave it out`, {
      field: 'cursor',
    });
  }
  return {
    ...result,
    findings: pages[at]!,
    finding_groups,
    pages: pages.length,
    next_cursor: at + 1 < pages.length ? String(at + 1) : null,
  };
}
