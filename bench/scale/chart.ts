/**
 * bench:scale's figures: one measure against tasks on log-log axes, a line per cluster size (colour) and per
 * measure (dash), as a Vega-Lite spec that src/charts/render.ts draws like every other chart of the project.
 */
import { chart, ChartSpec } from '../../src/charts/spec';

export interface ChartPoint {
  /** The line's colour: the cluster size. */
  nodes: string;
  /** The line's dash: which measure. */
  measure: string;
  tasks: number;
  value: number;
}

export function logLogSpec(title: string, yTitle: string, points: ChartPoint[]): ChartSpec {
  return chart({
    title,
    width: 420,
    height: 260,
    // A log scale has no place for 0 or a missing value (a measure never reached).
    data: { values: points.filter((p) => p.value > 0) },
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'tasks', type: 'quantitative', scale: { type: 'log' }, title: 'tasks' },
      y: { field: 'value', type: 'quantitative', scale: { type: 'log' }, title: yTitle },
      color: { field: 'nodes', type: 'nominal', title: 'cluster', sort: null },
      strokeDash: { field: 'measure', type: 'nominal', title: null },
      detail: [{ field: 'nodes' }, { field: 'measure' }],
    },
  });
}
