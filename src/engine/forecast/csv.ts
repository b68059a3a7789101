/**
 * The history CSV of `fallow forecast`: header `timestamp,node,metric,value`, one sample per line,
 * timestamp in Unix seconds, value a utilisation fraction in [0, 1]. Lines may come in any order (each
 * series is sorted); blank lines are ignored. Every problem names its 1-based line.
 */
import { ForecastInputError, Series, UsageHistory } from './types';

export const CSV_HEADER = 'timestamp,node,metric,value';

export function parseHistoryCsv(text: string): UsageHistory {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = lines[0]?.split(',').map((s) => s.trim().toLowerCase()).join(',');
  if (header !== CSV_HEADER) throw new ForecastInputError(`line 1: expected the header "${CSV_HEADER}", got "${lines[0] ?? ''}"`);
  const raw = new Map<string, { node: string; metric: string; t: number[]; v: number[]; line: number[] }>();
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === '') continue;
    const at = `line ${i + 1}`;
    const cells = line.split(',').map((s) => s.trim());
    if (cells.length !== 4) throw new ForecastInputError(`${at}: expected 4 comma-separated fields (${CSV_HEADER}), got ${cells.length}`);
    const [ts, node, metric, vs] = cells;
    const t = Number(ts);
    if (ts === '' || !Number.isFinite(t)) throw new ForecastInputError(`${at}: timestamp "${ts}" is not a number (Unix seconds)`);
    if (node === '') throw new ForecastInputError(`${at}: the node is empty`);
    if (metric === '') throw new ForecastInputError(`${at}: the metric is empty`);
    const v = Number(vs);
    if (vs === '' || !Number.isFinite(v)) throw new ForecastInputError(`${at}: value "${vs}" is not a number`);
    if (v < 0 || v > 1) throw new ForecastInputError(`${at}: value ${vs} is outside [0, 1] (a utilisation fraction, not a percentage)`);
    const key = JSON.stringify([node, metric]);
    let s = raw.get(key);
    if (!s) raw.set(key, (s = { node, metric, t: [], v: [], line: [] }));
    s.t.push(t);
    s.v.push(v);
    s.line.push(i + 1);
  }
  if (raw.size === 0) throw new ForecastInputError('the CSV holds a header but no samples');
  const history: UsageHistory = {};
  for (const s of raw.values()) {
    const order = s.t.map((_, k) => k).sort((a, b) => s.t[a] - s.t[b]);
    for (let k = 1; k < order.length; k++)
      if (s.t[order[k]] === s.t[order[k - 1]])
        throw new ForecastInputError(`line ${s.line[order[k]]}: a second sample of node ${s.node} metric ${s.metric} at ${s.t[order[k]]} (first on line ${s.line[order[k - 1]]})`);
    const series: Series = { t: Float64Array.from(order, (k) => s.t[k]), v: Float64Array.from(order, (k) => s.v[k]) };
    (history[s.node] ??= {})[s.metric] = series;
  }
  return history;
}

/** The inverse, for tests and tools: one line per sample, series after series. */
export function historyToCsv(history: UsageHistory): string {
  const out = [CSV_HEADER];
  for (const [node, metrics] of Object.entries(history))
    for (const [metric, s] of Object.entries(metrics)) for (let i = 0; i < s.t.length; i++) out.push(`${s.t[i]},${node},${metric},${s.v[i]}`);
  return out.join('\n') + '\n';
}
