/**
 * Histogram binning of features: each feature's values are cut at (at most bins - 2) quantile edges, so a
 * split search scans <= 64 bins instead of every distinct value, and the rows fit in one byte per feature.
 * Bin 0 is reserved for missing values (NaN: a lag before the history began), which therefore behave as
 * "below every value" in splits - the tree can still send them either way by where it cuts.
 */

export interface Binner {
  /** Per feature, ascending edges: bin(x) = 1 + number of edges < x. */
  edges: Float64Array[];
}

const SAMPLE = 20_000; // rows looked at to place the edges (quantiles of a sample are plenty)

export function fitBinner(x: Float64Array, nRows: number, nFeatures: number, bins: number): Binner {
  const maxEdges = Math.max(1, Math.min(255, bins) - 2);
  const step = Math.max(1, Math.floor(nRows / SAMPLE));
  const edges: Float64Array[] = [];
  for (let f = 0; f < nFeatures; f++) {
    const vals: number[] = [];
    for (let i = 0; i < nRows; i += step) {
      const v = x[i * nFeatures + f];
      if (!Number.isNaN(v)) vals.push(v);
    }
    vals.sort((a, b) => a - b);
    const distinct: number[] = [];
    for (const v of vals) if (distinct.length === 0 || v !== distinct[distinct.length - 1]) distinct.push(v);
    const e: number[] = [];
    if (distinct.length <= maxEdges + 1) {
      // few distinct values (day of week, node statistics): one bin each, cut half-way between them
      for (let i = 1; i < distinct.length; i++) e.push((distinct[i - 1] + distinct[i]) / 2);
    } else {
      for (let k = 1; k <= maxEdges; k++) {
        const v = vals[Math.min(vals.length - 1, Math.floor((k * vals.length) / (maxEdges + 1)))];
        if (e.length === 0 || v > e[e.length - 1]) e.push(v);
      }
    }
    edges.push(Float64Array.from(e));
  }
  return { edges };
}

export function binValue(edges: Float64Array, v: number): number {
  if (Number.isNaN(v)) return 0;
  let lo = 0;
  let hi = edges.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (edges[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo + 1;
}

/** Row-major bins of a row-major feature matrix. */
export function applyBinner(b: Binner, x: Float64Array, nRows: number): Uint8Array {
  const nf = b.edges.length;
  const out = new Uint8Array(nRows * nf);
  for (let i = 0; i < nRows; i++)
    for (let f = 0; f < nf; f++) out[i * nf + f] = binValue(b.edges[f], x[i * nf + f]);
  return out;
}

/** Number of bins feature f can take (0 = missing included). */
export function binCount(b: Binner, f: number): number {
  return b.edges[f].length + 2;
}

/** Bins of one row: the features x[columns[c]] into out[c] (no allocation: forecasting bins slot by slot). */
export function binRow(b: Binner, x: Float64Array, columns: readonly number[], out: Uint8Array): void {
  for (let c = 0; c < columns.length; c++) out[c] = binValue(b.edges[c], x[columns[c]]);
}
