/**
 * Usage-history request bodies for the service tests and the ingestion timing script: a cluster of `nodes`
 * nodes (h001, h002, ...) and the synthetic history of usage-traces.ts as JSON samples or as CSV.
 */
import { UsageHistory } from '../src/engine/forecast';
import { syntheticHistory, TraceOptions } from './usage-traces';

export interface UsageSample {
  timestamp: number;
  node: string;
  metric: string;
  value: number;
}

export const nodeId = (k: number) => `h${String(k + 1).padStart(3, '0')}`;

/** A cluster body with `nodes` identical nodes and the given metrics. */
export function usageCluster(nodes: number, metrics = ['cpu', 'ram'], name = 'usage') {
  return {
    name,
    metrics,
    nodes: Array.from({ length: nodes }, (_, k) => ({ id: nodeId(k), capacity: Object.fromEntries(metrics.map((m) => [m, 16])), speed: 4 })),
  };
}

/** The synthetic history renamed to the cluster's node ids (usage-traces names nodes n001, ...). */
export function usageHistory(o: TraceOptions): UsageHistory {
  const h = syntheticHistory(o);
  return Object.fromEntries(Object.values(h).map((metrics, k) => [nodeId(k), metrics]));
}

/** Every sample of a history, series after series, values rounded to 4 decimals (what monitoring exports). */
export function usageSamples(history: UsageHistory): UsageSample[] {
  const out: UsageSample[] = [];
  for (const [node, metrics] of Object.entries(history))
    for (const [metric, s] of Object.entries(metrics))
      for (let i = 0; i < s.t.length; i++) out.push({ timestamp: s.t[i], node, metric, value: Math.round(s.v[i] * 1e4) / 1e4 });
  return out;
}

export function usageCsv(samples: UsageSample[]): string {
  return ['timestamp,node,metric,value', ...samples.map((s) => `${s.timestamp},${s.node},${s.metric},${s.value}`)].join('\n') + '\n';
}
