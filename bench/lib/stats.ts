/** The few statistics the benchmarks print (the engine's own live in src/engine; these never feed a plan). */

export function median(xs: number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
}

export function mean(xs: number[]): number | null {
  return xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length;
}

export function pct(x: number, of: number): number {
  return of > 0 ? (100 * x) / of : 0;
}

/** A latency sample in brief (ms, rounded to 0.01): quantiles interpolated between the closest ranks. */
export interface Summary {
  n: number;
  median: number | null;
  p90: number | null;
  min: number | null;
  max: number | null;
  mean: number | null;
}

export function summarize(xs: number[]): Summary {
  if (xs.length === 0) return { n: 0, median: null, p90: null, min: null, max: null, mean: null };
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => {
    // linear interpolation between closest ranks
    const idx = (s.length - 1) * p;
    const lo = Math.floor(idx);
    const hi = Math.ceil(idx);
    return s[lo] + (s[hi] - s[lo]) * (idx - lo);
  };
  const r = (x: number) => Math.round(x * 100) / 100;
  return { n: s.length, median: r(q(0.5)), p90: r(q(0.9)), min: r(s[0]), max: r(s[s.length - 1]), mean: r(s.reduce((a, b) => a + b, 0) / s.length) };
}
