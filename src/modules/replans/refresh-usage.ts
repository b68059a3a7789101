import type { PlanWindow } from '../../engine/commitments/holds';

type Usage = Record<string, Record<string, number[]>>;

/** A forecast as a re-plan lays it on a plan's window. */
export interface ForecastSeries {
  startsAtMs: number;
  slotSeconds: number;
  slots: number;
  usage: Usage;
}

/**
 * The regular load a re-plan plans on: a newer forecast's values wherever it covers the plan's window, the
 * plan's own series elsewhere (the slots before it starts are past: a re-plan checks capacity from nowSlot
 * on), for the nodes and metrics the cluster has now (a node back, or added, has only the forecast's values;
 * 0 where neither says anything, as in a forecast). A slot of the window reads the forecast slot its start
 * falls in, as a solve's window does (forecast-window.ts); the forecast must have the window's slot length.
 */
export function refreshedUsage(old: Usage | undefined, forecast: ForecastSeries, window: PlanWindow, nodes: string[], metrics: string[]): Usage {
  const slotMs = window.slotSeconds * 1000;
  const covered = (t: number) => {
    const f = Math.floor((window.startsAtMs + t * slotMs - forecast.startsAtMs) / slotMs + 1e-9);
    return f >= 0 && f < forecast.slots ? f : -1;
  };
  const out: Usage = {};
  for (const node of nodes)
    for (const m of metrics) {
      const was = old?.[node]?.[m];
      const now = forecast.usage[node]?.[m];
      if (!was && !now) continue;
      const series = Array.from({ length: window.slots }, (_, t) => {
        const f = covered(t);
        return f >= 0 ? (now?.[f] ?? 0) : (was?.[t] ?? 0);
      });
      (out[node] ??= {})[m] = series;
    }
  return out;
}
