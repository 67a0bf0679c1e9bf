/**
 * The extractors never fail on any input within the limit: they return a valid result, or (URDF and
 * xacro only: malformed XML, an XML or xacro limit, what a xacro needs) refuse with invalid_input
 * naming the field; oversize input is refused naming the field.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/shared/errors.js';
import { extract, ExtractionResult, MAX_INPUT_BYTES, MAX_SKIPPED_LISTED, type ExtractorKind } from '../../src/ingest/oss/index.js';
import { fixtureText } from './helpers.js';

const KINDS: (ExtractorKind | 'auto')[] = ['auto', 'urdf', 'bom_md', 'bom_csv'];

const TOKENS = [
  '<robot name="r">', '</robot>', '<joint', ' name="j"', " type='revolute'", ' type="fixed"', ' type="Revolute"', '>', '/>', '</joint>', '<link name="l">', '</link>',
  '<inertial>', '<mass value="1.5"/>', '<mass value="x"/>', '<!--', '-->', '<limit effort="1" lower="a" upper="2"/>', '<parent link="p"/>', '<child link="c"/>',
  '<transmission>', '</transmission>', '<gazebo>', '"', "'", '=', '\n', '\r\n', '\r', ' ', '|', '---', '| Item | Qty | Unit Price (CNY) |', '|---|---|---|', '| Motor | 2 | 1,000 |',
  '\t', ',', ';', '[a](http://x.example)', '![i](', '](', '[', ']', '(', ')', '<sup>', '</sup>', '<br>', '\\', '\\|', '**', '$', '￥', '¥', '€', '元', '1,000', '12', '0.5',
  'Total', '# H', '```', '~~~', '&amp;', '&#x0;', '&#99999999;', '&#xD800;', '<![CDATA[', ']]>', '<?xml', '?>', '<https://a.example>', 'http://b c', '\u0000', '\ufeff', '\ud800', '😀', 'Qty', 'Part', 'Name,Qty',
];

const soup = fc.array(fc.constantFrom(...TOKENS), { maxLength: 120 }).map((t) => t.join(''));
const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 400 }), fc.string({ unit: 'grapheme', maxLength: 200 }), soup);

/** extract, or null when it refused cleanly: a DomainError invalid_input naming the field (never another error). */
function extractOrRefusal(content: string, kind: ExtractorKind | 'auto') {
  try {
    return extract(content, kind);
  } catch (e) {
    expect(e).toBeInstanceOf(DomainError);
    expect((e as DomainError).code).toBe('invalid_input');
    expect((e as DomainError).details.field).toBe('content');
    return null;
  }
}

function check(content: string): void {
  for (const kind of KINDS) {
    const r = extractOrRefusal(content, kind);
    if (r === null) {
      expect(kind === 'urdf' || kind === 'auto').toBe(true);
      continue;
    }
    const parsed = ExtractionResult.safeParse(r);
    if (!parsed.success) throw new Error(`invalid result for kind ${kind}: ${parsed.error.message}`);
    expect(r.counts.records).toBe(r.records.length);
    expect(r.counts.skipped).toBeGreaterThanOrEqual(r.skipped.length);
    expect(r.skipped.length).toBeLessThanOrEqual(MAX_SKIPPED_LISTED);
    if (kind !== 'auto') expect(r.kind).toBe(kind);
    if (r.kind === null) expect(r.records).toEqual([]);
  }
}

describe('extractors never fail: a valid result or a clean invalid_input refusal', () => {
  it('on arbitrary text and on token soup, for every kind', () => {
    fc.assert(fc.property(anyText, (s) => check(s)), { numRuns: 400 });
  });

  it('on mutated fixtures (characters deleted, duplicated and inserted)', () => {
    const bases = ['exporter-style.urdf', 'bom-tables.md'].map(fixtureText);
    const mutation = fc.tuple(fc.nat(), fc.nat({ max: 40 }), fc.constantFrom('', '<', '>', '"', '|', '\n', '-->', '<!--', '\t', '**'));
    fc.assert(
      fc.property(fc.constantFrom(...bases), fc.array(mutation, { minLength: 1, maxLength: 6 }), (base, muts) => {
        let s = base;
        for (const [at, len, ins] of muts) {
          const i = at % (s.length + 1);
          s = s.slice(0, i) + ins + s.slice(i + len);
        }
        check(s);
      }),
      { numRuns: 150 },
    );
  });

  it('URDF joint names are verbatim substrings of the input (no entities involved)', () => {
    fc.assert(
      fc.property(soup, (s) => {
        if (s.includes('&')) return;
        for (const r of extractOrRefusal(s, 'urdf')?.records ?? []) if (r.record_type === 'urdf_joint') expect(s).toContain(r.joint_name);
      }),
      { numRuns: 200 },
    );
  });
});

describe('input limit', () => {
  it(`refuses more than ${MAX_INPUT_BYTES} bytes of UTF-8 with payload_too_large naming the field`, () => {
    const over = 'a'.repeat(MAX_INPUT_BYTES + 1);
    let err: unknown;
    try {
      extract(over);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe('payload_too_large');
    expect((err as DomainError).details).toEqual({ field: 'content', size_bytes: MAX_INPUT_BYTES + 1, limit_bytes: MAX_INPUT_BYTES });
    expect((err as DomainError).message).toMatch(/^content: /);
    // Multi-byte characters count as their UTF-8 bytes.
    expect(() => extract('€'.repeat(Math.floor(MAX_INPUT_BYTES / 3) + 1))).toThrow(/content: is \d+ bytes/);
    expect(() => extract('a'.repeat(MAX_INPUT_BYTES))).not.toThrow();
  });

  it('worst-case shapes at the limit finish (deep nesting, unclosed brackets, many rows): the scanners are linear', () => {
    const fill = (s: string) => s.repeat(Math.floor((MAX_INPUT_BYTES - 64) / Buffer.byteLength(s)));
    // 2 MiB of unclosed nesting: refused at the depth limit with its line and column, not scanned to the end.
    expect(() => extract(`<robot name="r">${fill('<link name="l"><inertial>')}`, 'urdf')).toThrow(/limit max_xml_depth/);
    expect(extract(`<robot name="r">${fill('<link name="l"/>')}</robot>`, 'urdf').counts.links).toBeGreaterThan(120_000);
    expect(extract(`| Item | Qty |\n|---|---|\n| ${fill('[')} | 1 |\n`).counts.records).toBe(1);
    expect(extract(`| Item | Qty |\n|---|---|\n| ${fill('![x')} | 1 |\n`).counts.records).toBe(1);
    const many = extract(`| Item | Qty |\n|---|---|\n${fill('| m | 1 |\n')}`);
    expect(many.counts.records).toBe(10_000);
    expect(many.skipped[0].code).toBe('record_limit');
  });
});
