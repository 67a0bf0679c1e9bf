/**
 * The SVG renderer of the intelligence picture (src/domain/analytics/chart.ts), on small documents
 * written here: every bar is drawn with the document's figure, TRL 1-9 are scaled among themselves
 * (a large unknown count does not flatten them), text is escaped, equal data gives equal bytes.
 */
import { describe, expect, it } from 'vitest';
import { niceTicks, renderIntelligenceSvg, type ChartDocument } from '../../src/domain/analytics/chart.js';

const thresholds = { green: 67, yellow: 34 };

function doc(dist: Record<string, number>, cats: ChartDocument['categories'], category: string | null = null): ChartDocument {
  return {
    meta: { category, counts: { entities: 10, with_trl: 3, with_momentum: 2 }, attribution: 'Source A; more' },
    categories: cats,
    maturity_distribution: dist,
  };
}

/** Every <rect> with a data-label, as numbers. */
function rects(svg: string) {
  return [...svg.matchAll(/<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" fill="(#[0-9a-f]{6})" data-label="([^"]*)" data-value="([^"]*)"\/>/g)].map((m) => ({
    x: Number(m[1]),
    y: Number(m[2]),
    w: Number(m[3]),
    h: Number(m[4]),
    fill: m[5],
    label: m[6],
    value: Number(m[7]),
  }));
}

describe('intelligence SVG renderer', () => {
  const d = doc(
    { '1': 0, '2': 1, '3': 2, '4': 4, '5': 0, '6': 0, '7': 0, '8': 0, '9': 8, unknown: 500 },
    {
      a: { name: 'Alpha & <Co>', momentum: { known: 3, mean: 70 } },
      b: { name: 'Beta', momentum: { known: 1, mean: 33.5 } },
      c: { name: 'Gamma', momentum: { known: 0, mean: null } },
      d: { name: 'Delta', momentum: { known: 2, mean: 34 } },
    },
  );
  const svg = renderIntelligenceSvg(d, thresholds);

  it('is one well-formed svg element of the fixed size', () => {
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="820"')).toBe(true);
    expect(svg.endsWith('</svg>')).toBe(true);
    // every opened text element is closed; no raw & or < inside text
    expect(svg.match(/<text /g)!.length).toBe(svg.match(/<\/text>/g)!.length);
    expect(svg).toContain('>Alpha &amp; &lt;Co&gt; (n=3)<');
    expect(svg).not.toContain('Alpha & <Co>');
  });

  it('draws TRL 1-9 proportional among themselves, unknown apart on its own axis', () => {
    const trl = rects(svg).filter((r) => r.label.startsWith('TRL '));
    expect(trl.map((r) => r.label)).toEqual(Array.from({ length: 9 }, (_, i) => `TRL ${i + 1}`));
    expect(trl.map((r) => r.value)).toEqual([0, 1, 2, 4, 0, 0, 0, 0, 8]);
    const unit = trl[8]!.h / 8;
    // 8 is the largest count; axis ticks go 0,2,4,6,8 so it fills the panel height (260 px)
    expect(trl[8]!.h).toBeCloseTo(260, 1);
    trl.forEach((r) => expect(r.h).toBeCloseTo(r.value * unit, 1));
    for (const r of trl) expect(r.fill).toBe('#3f6fa6');
    const unknown = rects(svg).filter((r) => r.label === 'unknown');
    expect(unknown).toHaveLength(1);
    expect(unknown[0]!.fill).toBe('#9aa5b1');
    expect(unknown[0]!.x).toBeGreaterThan(trl[8]!.x + trl[8]!.w);
    // its axis is all records of the picture (515); ticks of 200 up to 600
    expect(unknown[0]!.h).toBeCloseTo((500 / 600) * 260, 1);
    expect(svg).toContain('>500<');
  });

  it('one momentum bar per scored category, width on a 0-100 axis, coloured by the thresholds', () => {
    const m = rects(svg).filter((r) => !r.label.startsWith('TRL ') && r.label !== 'unknown');
    expect(m.map((r) => [r.label, r.value, r.fill])).toEqual([
      ['Alpha &amp; &lt;Co&gt;', 70, '#2e8b57'],
      ['Beta', 33.5, '#c0392b'],
      ['Delta', 34, '#d4a017'],
    ]);
    m.forEach((r) => expect(r.w).toBeCloseTo((r.value / 100) * 680, 1));
    expect(svg).not.toContain('Gamma');
  });

  it('is deterministic and names its scope', () => {
    expect(renderIntelligenceSvg(d, thresholds)).toBe(svg);
    expect(svg).toContain('(whole catalogue)');
    expect(renderIntelligenceSvg(doc(d.maturity_distribution, d.categories, 'actuators'), thresholds)).toContain('(category actuators)');
  });

  it('an empty picture still draws its axes and says that no category is scored', () => {
    const empty = renderIntelligenceSvg(doc({}, {}), thresholds);
    const r = rects(empty);
    expect(r.filter((x) => x.label.startsWith('TRL ')).every((x) => x.h === 0)).toBe(true);
    expect(empty).toContain('no category has a momentum score');
    expect(empty).not.toContain('NaN');
  });

  it('niceTicks: steps of 1, 2 or 5 times a power of ten, ending at or above the maximum', () => {
    expect(niceTicks(8)).toEqual([0, 2, 4, 6, 8]);
    expect(niceTicks(117)).toEqual([0, 50, 100, 150]);
    expect(niceTicks(515)).toEqual([0, 200, 400, 600]);
    expect(niceTicks(3)).toEqual([0, 1, 2, 3]);
    expect(niceTicks(0)).toEqual([0, 1]);
  });
});
