import { SampleColumns } from './usage-samples';

/** The rows to write, grouped by series and ascending in time, without repeats; and each series' time span. */
export interface OrderedRows {
  /** Row indexes into the columns. */
  order: Int32Array;
  /** Per series: its rows are order[start[s]] .. order[start[s + 1] - 1]. */
  start: Int32Array;
  /** Per series: first and last timestamp (Unix seconds). */
  first: Float64Array;
  last: Float64Array;
  /** Row pairs (first, repeat) of one series and time with different values: the request contradicts itself. */
  repeats: [number, number][];
}

/** Contradicting repeats listed at most. */
const MAX_REPEATS = 100;

/**
 * Bucket sort by series (linear), then a time sort inside a bucket only when it is not already ascending
 * (monitoring exports usually are), then drop repeated timestamps: a repeat of a (series, time) with the
 * same value is a duplicate (a retried upload); one with another value is listed in `repeats` (refused). Sorted rows also
 * make the primary-key index grow at its right edge instead of splitting pages all over.
 */
export function orderRows(c: SampleColumns): OrderedRows {
  const S = c.series.length;
  const n = c.ts.length;
  const offset = new Int32Array(S + 1);
  for (let i = 0; i < n; i++) offset[c.seriesOf[i] + 1]++;
  for (let s = 0; s < S; s++) offset[s + 1] += offset[s];
  const fill = offset.slice(0, S);
  const byTime = new Int32Array(n);
  for (let i = 0; i < n; i++) byTime[fill[c.seriesOf[i]]++] = i;

  const order = new Int32Array(n);
  const start = new Int32Array(S + 1);
  const first = new Float64Array(S);
  const last = new Float64Array(S);
  const repeats: [number, number][] = [];
  let out = 0;
  for (let s = 0; s < S; s++) {
    let rows = byTime.subarray(offset[s], offset[s + 1]);
    let sorted = true;
    for (let k = 1; k < rows.length && sorted; k++) sorted = c.ts[rows[k - 1]] <= c.ts[rows[k]];
    if (!sorted) rows = Int32Array.from(Array.from(rows).sort((a, b) => c.ts[a] - c.ts[b] || a - b));
    start[s] = out;
    let kept = -1;
    for (let k = 0; k < rows.length; k++)
      if (k === 0 || c.ts[rows[k]] !== c.ts[rows[k - 1]]) order[out++] = kept = rows[k];
      else if (c.value[rows[k]] !== c.value[kept] && repeats.length < MAX_REPEATS) repeats.push([kept, rows[k]]);
    first[s] = c.ts[rows[0]];
    last[s] = c.ts[rows[rows.length - 1]];
  }
  start[S] = out;
  return { order: order.subarray(0, out), start, first, last, repeats };
}
