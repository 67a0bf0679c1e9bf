/** check_bom's grouping and pages (src/domain/bom/check-page.ts) over the shipped catalogue's first 500 records. */
import { beforeAll, describe, expect, it } from 'vitest';
import { bomCheckEngines, checkBom, FINDINGS_PAGE_CHARS, pageBomCheck, recordLookup, toCheckParts, type BomCheckResult } from '../../src/domain/bom/index.js';
import { realDeps } from '../support/deps.js';

describe('check_bom pages', () => {
  let result: BomCheckResult;
  beforeAll(async () => {
    const deps = realDeps();
    await deps.ready;
    const records = (await deps.catalogue.list({ includeQuarantine: true, limit: 100_000 })).items.slice(0, 500);
    result = checkBom(toCheckParts(records.map((r) => ({ id: r.id, quantity: 1 })), recordLookup(records)), bomCheckEngines({ ...deps.knowledge, baseUrl: 'http://x' }));
    deps.close();
  }, 300_000);

  it('every page within 200,000 characters; pages tile the findings exactly (split findings rejoin to the original)', () => {
    const full = JSON.stringify(result).length;
    expect(full).toBeGreaterThan(200_000);
    const first = pageBomCheck(result, undefined);
    const got: unknown[] = [];
    for (let at = 0, cursor: string | null = '0'; cursor !== null; at++) {
      const page = pageBomCheck(result, cursor);
      expect(JSON.stringify(page).length).toBeLessThanOrEqual(200_000);
      expect(JSON.stringify(page.findings).length).toBeLessThanOrEqual(FINDINGS_PAGE_CHARS);
      expect(page.next_cursor).toBe(at + 1 < page.pages ? String(at + 1) : null);
      got.push(...page.findings);
      cursor = page.next_cursor;
    }
    // Rejoin the ranges and compare with the check's own findings.
    const rejoined: Record<string, unknown>[] = [];
    for (const f of got as (Record<string, unknown> & { part_range?: { from: number }; parts: unknown[]; evidence: unknown[]; detail: Record<string, unknown> })[]) {
      const { part_range, ...rest } = f;
      if (!part_range || part_range.from === 0) rejoined.push(rest);
      else {
        const prev = rejoined[rejoined.length - 1] as typeof f;
        prev.parts = [...prev.parts, ...rest.parts];
        prev.evidence = [...prev.evidence, ...rest.evidence];
        for (const [k, v] of Object.entries(rest.detail)) prev.detail[k] = { ...(prev.detail[k] as object), ...(v as object) };
      }
    }
    expect(rejoined.length).toBe(result.findings.length);
    for (let i = 0; i < rejoined.length; i++) {
      const a = rejoined[i] as { parts: unknown[]; evidence: { id: string }[]; kind: string; message: string };
      const b = result.findings[i]!;
      expect(a.kind).toBe(b.kind);
      expect(a.message).toBe(b.message);
      expect(a.parts).toEqual(b.parts);
      expect(new Set(a.evidence.map((e) => JSON.stringify(e)))).toEqual(new Set(b.evidence.map((e) => JSON.stringify(e))));
      expect(a.evidence.length).toBe(b.evidence.length);
    }
    // Groups: counted from the check's findings independently here.
    const counts = new Map<string, number>();
    for (const f of result.findings) counts.set(`${f.kind}|${f.dimension}|${f.severity}`, (counts.get(`${f.kind}|${f.dimension}|${f.severity}`) ?? 0) + 1);
    expect(new Map(first.finding_groups.map((g) => [`${g.kind}|${g.dimension}|${g.severity}`, g.findings]))).toEqual(counts);
  });

  it('a cursor that names no page is refused, naming the field', () => {
    for (const bad of ['-1', 'x', '99999']) expect(() => pageBomCheck(result, bad)).toThrow(/^cursor: /);
  });

  it('a communication unknown groups its per-host reasons: one entry per distinct reason, with a host count', () => {
    const comm = result.findings.find((f) => f.kind === 'unknown_dimension' && f.dimension === 'communication');
    expect(comm).toBeDefined();
    const reasons = Object.entries(comm!.detail.reasons as Record<string, unknown>).filter(([, v]) => Array.isArray(v)) as [string, { reason: string; hosts: number; examples: string[]; first: { a: string } }[]][];
    expect(reasons.length).toBeGreaterThan(0);
    for (const [device, g] of reasons) {
      expect(new Set(g.map((x) => `${x.first.a === device}|${x.reason}`)).size).toBe(g.length);
      for (const x of g) expect(x.examples.length).toBe(Math.min(3, x.hosts));
    }
  });
});
