/**
 * The intelligence picture: the TRL distribution and mean momentum by category, drawn as plain
 * SVG (rectangles and text, no library). Deterministic: fixed size, values only from the document,
 * numbers rounded to 0.01 px, so equal data gives equal bytes.
 *
 * Layout: TRL 1-9 as columns on their own axis; records without a TRL ("unknown", usually most of
 * the catalogue) in a separate panel on an axis of all records, so a large unknown count does not
 * flatten TRL 1-9; below, one horizontal bar per category with a momentum score on a 0-100 axis.
 */

export interface ChartDocument {
  meta: { category: string | null; counts: { entities: number; with_trl: number; with_momentum: number }; attribution: string };
  categories: Record<string, { name: string; momentum: { known: number; mean: number | null } }>;
  maturity_distribution: Record<string, number>;
}

export const CHART_WIDTH = 1000;
export const CHART_HEIGHT = 820;
export const COLOURS = { trl: '#3f6fa6', unknown: '#9aa5b1', green: '#2e8b57', yellow: '#d4a017', red: '#c0392b' } as const;

/** Bars of the picture as plain data (what the SVG draws), for the route, the tests and the text alternative. */
export function chartData(doc: ChartDocument, thresholds: { green: number; yellow: number }) {
  const trl = Array.from({ length: 9 }, (_, i) => ({ label: `TRL ${i + 1}`, value: doc.maturity_distribution[String(i + 1)] ?? 0 }));
  const unknown = { label: 'unknown', value: doc.maturity_distribution.unknown ?? 0 };
  const momentum = Object.entries(doc.categories)
    .filter(([, c]) => c.momentum.known > 0 && c.momentum.mean !== null)
    .map(([slug, c]) => ({
      slug,
      label: c.name,
      value: c.momentum.mean!,
      n: c.momentum.known,
      colour: c.momentum.mean! >= thresholds.green ? COLOURS.green : c.momentum.mean! >= thresholds.yellow ? COLOURS.yellow : COLOURS.red,
    }));
  return { trl, unknown, momentum };
}

/** Text escaped for SVG character data and attribute values. */
export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
}

const px = (n: number) => String(Math.round(n * 100) / 100);

/**
 * Axis ticks from 0 to at least max: a step of 1, 2 or 5 times a power of ten giving at most
 * `count` intervals (integers only when `integer`, as for record counts).
 */
export function niceTicks(max: number, count = 5, integer = true): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / count;
  const pow = 10 ** Math.floor(Math.log10(raw));
  let step = [1, 2, 5, 10].map((m) => m * pow).find((s) => s >= raw)!;
  if (integer) step = Math.max(1, Math.ceil(step));
  const ticks: number[] = [];
  for (let v = 0; v < max + step; v += step) {
    ticks.push(Math.round(v * 1e9) / 1e9);
    if (v >= max) break;
  }
  return ticks;
}

function text(x: number, y: number, s: string, attrs = ''): string {
  return `<text x="${px(x)}" y="${px(y)}"${attrs ? ' ' + attrs : ''}>${escapeXml(s)}</text>`;
}

function rect(x: number, y: number, w: number, h: number, fill: string, extra = ''): string {
  return `<rect x="${px(x)}" y="${px(y)}" width="${px(Math.max(0, w))}" height="${px(Math.max(0, h))}" fill="${fill}"${extra ? ' ' + extra : ''}/>`;
}

const line = (x1: number, y1: number, x2: number, y2: number, stroke = '#d0d5da') =>
  `<line x1="${px(x1)}" y1="${px(y1)}" x2="${px(x2)}" y2="${px(y2)}" stroke="${stroke}" stroke-width="1"/>`;

/** Vertical bars with value labels on a shared y axis; returns the SVG elements. */
function columns(bars: { label: string; value: number; fill: string }[], box: { x: number; y: number; w: number; h: number }, max: number): string[] {
  const out: string[] = [];
  const ticks = niceTicks(max);
  const top = ticks[ticks.length - 1]!;
  const yOf = (v: number) => box.y + box.h - (v / top) * box.h;
  for (const t of ticks) {
    out.push(line(box.x, yOf(t), box.x + box.w, yOf(t), t === 0 ? '#6e7781' : '#e3e7eb'));
    out.push(text(box.x - 6, yOf(t) + 4, String(t), 'text-anchor="end" font-size="11" fill="#555"'));
  }
  const slot = box.w / bars.length;
  const bw = Math.min(48, slot * 0.6);
  bars.forEach((b, i) => {
    const cx = box.x + slot * (i + 0.5);
    const h = (b.value / top) * box.h;
    out.push(rect(cx - bw / 2, box.y + box.h - h, bw, h, b.fill, `data-label="${escapeXml(b.label)}" data-value="${b.value}"`));
    out.push(text(cx, box.y + box.h - h - 5, String(b.value), 'text-anchor="middle" font-size="12"'));
    out.push(text(cx, box.y + box.h + 18, b.label, 'text-anchor="middle" font-size="12"'));
  });
  return out;
}

export function renderIntelligenceSvg(doc: ChartDocument, thresholds: { green: number; yellow: number }): string {
  const data = chartData(doc, thresholds);
  const scope = doc.meta.category === null ? 'whole catalogue' : `category ${doc.meta.category}`;
  const c = doc.meta.counts;
  const parts: string[] = [
    rect(0, 0, CHART_WIDTH, CHART_HEIGHT, '#ffffff'),
    text(CHART_WIDTH / 2, 30, `Technology readiness and momentum (${scope})`, 'text-anchor="middle" font-size="18" font-weight="bold"'),
    text(CHART_WIDTH / 2, 52, `${c.entities} records, ${c.with_trl} with a TRL, ${c.with_momentum} with a momentum score`, 'text-anchor="middle" font-size="12" fill="#555"'),
    text(40, 86, 'Records by TRL (not quarantined)', 'font-size="14" font-weight="bold"'),
    text(800, 86, 'No TRL recorded', 'font-size="14" font-weight="bold"'),
  ];
  // TRL 1-9 on their own axis.
  const trlMax = Math.max(1, ...data.trl.map((b) => b.value));
  parts.push(...columns(data.trl.map((b) => ({ ...b, fill: COLOURS.trl })), { x: 70, y: 110, w: 680, h: 260 }, trlMax));
  // unknown apart, on an axis of all records of this picture (TRL known + unknown).
  const all = data.unknown.value + data.trl.reduce((s, b) => s + b.value, 0);
  parts.push(...columns([{ ...data.unknown, fill: COLOURS.unknown }], { x: 850, y: 110, w: 100, h: 260 }, Math.max(1, all)));

  // Momentum by category, 0-100.
  const box = { x: 260, y: 470, w: 680, h: 300 };
  parts.push(text(40, 440, 'Mean momentum by category, 0-100 (n = records with a score)', 'font-size="14" font-weight="bold"'));
  const xOf = (v: number) => box.x + (v / 100) * box.w;
  for (let t = 0; t <= 100; t += 20) {
    parts.push(line(xOf(t), box.y, xOf(t), box.y + box.h, t === 0 ? '#6e7781' : '#e3e7eb'));
    parts.push(text(xOf(t), box.y + box.h + 16, String(t), 'text-anchor="middle" font-size="11" fill="#555"'));
  }
  if (data.momentum.length === 0) {
    parts.push(text(box.x + box.w / 2, box.y + box.h / 2, 'no category has a momentum score', 'text-anchor="middle" font-size="13" fill="#555"'));
  } else {
    const slot = box.h / data.momentum.length;
    const bh = Math.min(36, slot * 0.7);
    data.momentum.forEach((b, i) => {
      const cy = box.y + slot * (i + 0.5);
      const w = xOf(b.value) - box.x;
      parts.push(rect(box.x, cy - bh / 2, w, bh, b.colour, `data-label="${escapeXml(b.label)}" data-value="${b.value}"`));
      parts.push(text(box.x - 8, cy + 4, `${b.label} (n=${b.n})`, 'text-anchor="end" font-size="12"'));
      parts.push(text(box.x + w + 6, cy + 4, String(b.value), 'font-size="12"'));
    });
  }
  parts.push(text(CHART_WIDTH / 2, CHART_HEIGHT - 8, doc.meta.attribution.split(';')[0]!, 'text-anchor="middle" font-size="10" fill="#555"'));
  const title = `Technology readiness and momentum (${scope})`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CHART_WIDTH}" height="${CHART_HEIGHT}" viewBox="0 0 ${CHART_WIDTH} ${CHART_HEIGHT}" role="img" aria-label="${escapeXml(title)}" font-family="sans-serif">` +
    `<title>${escapeXml(title)}</title>` +
    parts.join('') +
    '</svg>'
  );
}
