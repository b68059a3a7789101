/**
 * What every chart shares: the Vega-Lite version, the spec type, the look, and how long lists are cut so that
 * a title stays one screen wide. The builders (gantt.ts, utilisation.ts, simulation.ts, revenue.ts) are pure:
 * data in, a Vega-Lite spec out; render.ts turns a spec into SVG.
 */

export const VEGA_LITE_SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

/** A Vega-Lite top-level spec (JSON). Typed loosely: vega-lite's own types are ESM-only (see render.ts). */
export type ChartSpec = { $schema: string } & Record<string, unknown>;

/** Width of the plotting area of the wide charts, in pixels. */
export const PLOT_WIDTH = 900;

/** One palette for jobs everywhere (20 distinguishable colours; they repeat beyond). */
export const JOB_SCHEME = 'tableau20';

/** Jobs beyond this many get no legend: it would be taller than the chart. */
export const MAX_LEGEND_JOBS = 20;

export function chart(body: Record<string, unknown>): ChartSpec {
  return {
    $schema: VEGA_LITE_SCHEMA,
    background: 'white',
    padding: 8,
    config: { font: 'sans-serif', view: { stroke: '#ddd' }, title: { anchor: 'start', fontSize: 14, subtitleColor: '#555' }, axis: { labelFontSize: 10, titleFontSize: 11 } },
    ...body,
  };
}

/** "label: a, b, c (+N more)" cut after `max` items; "label: none" for an empty list. */
export function listLine(label: string, items: readonly string[], max = 12): string {
  if (items.length === 0) return `${label}: none`;
  const shown = items.slice(0, max).join(', ');
  return items.length > max ? `${label}: ${shown} (+${items.length - max} more)` : `${label}: ${shown}`;
}

/** Chooses a bucket length (in slots) so that `slots` fit in at most `maxBuckets` buckets. */
export function bucketSlots(slots: number, maxBuckets: number): number {
  return Math.max(1, Math.ceil(slots / maxBuckets));
}

/** Rounds for the JSON a spec carries (smaller specs, stable output). */
export function round(v: number, digits = 4): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}
