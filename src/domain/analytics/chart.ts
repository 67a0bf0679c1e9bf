/**
 * The intelligence picture: the TRL distribution and mean momentum by category, drawn as SVG by
 * Apache ECharts in its server-side mode (no DOM). ECharts is loaded on the first picture only
 * (it takes seconds to import), so start-up does not pay for it. Deterministic: animation off,
 * fixed size, values only from the document.
 */

export interface ChartDocument {
  meta: { category: string | null; counts: { entities: number; with_trl: number; with_momentum: number }; attribution: string };
  categories: Record<string, { name: string; momentum: { known: number; mean: number | null } }>;
  maturity_distribution: Record<string, number>;
}

export const CHART_WIDTH = 1000;
export const CHART_HEIGHT = 820;
export const COLOURS = { trl: '#3f6fa6', green: '#2e8b57', yellow: '#d4a017', red: '#c0392b' } as const;

/** Bars of the picture as plain data (what the SVG draws), for the route, the tests and the text alternative. */
export function chartData(doc: ChartDocument, thresholds: { green: number; yellow: number }) {
  const trl = [...Array.from({ length: 9 }, (_, i) => ({ label: `TRL ${i + 1}`, value: doc.maturity_distribution[String(i + 1)] ?? 0 })), { label: 'unknown', value: doc.maturity_distribution.unknown ?? 0 }];
  const momentum = Object.entries(doc.categories)
    .filter(([, c]) => c.momentum.known > 0 && c.momentum.mean !== null)
    .map(([slug, c]) => ({
      slug,
      label: c.name,
      value: c.momentum.mean!,
      n: c.momentum.known,
      colour: c.momentum.mean! >= thresholds.green ? COLOURS.green : c.momentum.mean! >= thresholds.yellow ? COLOURS.yellow : COLOURS.red,
    }));
  return { trl, momentum };
}

/** ECharts with the parts the picture uses (the module cache makes later calls cheap; use() skips installed parts). */
async function echarts(): Promise<typeof import('echarts/core')> {
  const [core, charts, components, renderers] = await Promise.all([import('echarts/core'), import('echarts/charts'), import('echarts/components'), import('echarts/renderers')]);
  core.use([charts.BarChart, components.GridComponent, components.TitleComponent, renderers.SVGRenderer]);
  return core;
}

/** ZRender names CSS classes after a process-wide instance counter; renumber them in order of appearance so equal data gives equal bytes. */
function stableClassNames(svg: string): string {
  const names = new Map<string, string>();
  return svg.replace(/zr\d+-cls-\d+/g, (m) => {
    let n = names.get(m);
    if (n === undefined) {
      n = `rp-cls-${names.size}`;
      names.set(m, n);
    }
    return n;
  });
}

export async function renderIntelligenceSvg(doc: ChartDocument, thresholds: { green: number; yellow: number }): Promise<string> {
  const ec = await echarts();
  const data = chartData(doc, thresholds);
  const scope = doc.meta.category === null ? 'whole catalogue' : `category ${doc.meta.category}`;
  const chart = ec.init(null, null, { renderer: 'svg', ssr: true, width: CHART_WIDTH, height: CHART_HEIGHT });
  try {
    chart.setOption({
      animation: false,
      backgroundColor: '#ffffff',
      textStyle: { fontFamily: 'sans-serif' },
      title: [
        {
          text: `Technology readiness and momentum (${scope})`,
          subtext: `${doc.meta.counts.entities} records, ${doc.meta.counts.with_trl} with a TRL, ${doc.meta.counts.with_momentum} with a momentum score`,
          left: 'center',
          top: 8,
        },
        { text: 'Records by TRL (not quarantined)', left: 40, top: 70, textStyle: { fontSize: 14 } },
        { text: 'Mean momentum by category, 0-100 (n = records with a score)', left: 40, top: 430, textStyle: { fontSize: 14 } },
        { text: doc.meta.attribution.split(';')[0]!, left: 'center', bottom: 6, textStyle: { fontSize: 10, fontWeight: 'normal', color: '#555' } },
      ],
      grid: [
        { left: 70, right: 40, top: 110, height: 260 },
        { left: 260, right: 60, top: 470, height: 300 },
      ],
      xAxis: [
        { gridIndex: 0, type: 'category', data: data.trl.map((d) => d.label), axisLabel: { interval: 0 } },
        { gridIndex: 1, type: 'value', min: 0, max: 100 },
      ],
      yAxis: [
        { gridIndex: 0, type: 'value', minInterval: 1 },
        { gridIndex: 1, type: 'category', inverse: true, data: data.momentum.map((d) => `${d.label} (n=${d.n})`) },
      ],
      series: [
        {
          name: 'trl',
          type: 'bar',
          xAxisIndex: 0,
          yAxisIndex: 0,
          data: data.trl.map((d) => ({ value: d.value, itemStyle: { color: d.label === 'unknown' ? '#9aa5b1' : COLOURS.trl } })),
          label: { show: true, position: 'top' },
        },
        {
          name: 'momentum',
          type: 'bar',
          xAxisIndex: 1,
          yAxisIndex: 1,
          data: data.momentum.map((d) => ({ value: d.value, itemStyle: { color: d.colour } })),
          barMaxWidth: 36,
          label: { show: true, position: 'right' },
        },
      ],
    });
    return stableClassNames(chart.renderToSVGString());
  } finally {
    chart.dispose();
  }
}
