/**
 * The pinball (quantile) loss and empirical quantiles. The loss of forecasting f when y happens is
 *   rho_q(y - f) = q * (y - f)        if y >= f   (under-forecast: costly at high q)
 *                = (1 - q) * (f - y)  if y <  f   (over-forecast: capacity left unused)
 * and its expectation is minimised by the q-quantile of y, which is why boosting it yields quantiles.
 */

export function pinball(y: number, f: number, q: number): number {
  const u = y - f;
  return u >= 0 ? q * u : (q - 1) * u;
}

/**
 * Gradient of rho_q(y - f) with respect to f: -q when the forecast is below the value, 1 - q otherwise
 * (the subgradient at y = f is taken as 1 - q, as in scikit-learn).
 */
export function pinballGradient(y: number, f: number, q: number): number {
  return y > f ? -q : 1 - q;
}

/**
 * The q-quantile of xs[0..n) by linear interpolation between order statistics (Hyndman-Fan type 7, the
 * default of numpy and R). Reorders xs in place (quickselect, O(n)): callers pass a scratch buffer.
 */
export function quantileInPlace(xs: Float64Array | number[], n: number, q: number): number {
  if (n <= 0) return NaN;
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  const a = select(xs, 0, n - 1, lo);
  if (lo + 1 >= n || h === lo) return a;
  // after select(lo), every element above lo is >= a; the next order statistic is their minimum
  let b = Infinity;
  for (let i = lo + 1; i < n; i++) if (xs[i] < b) b = xs[i];
  return a + (h - lo) * (b - a);
}

/** The q-quantile of the finite values of xs (a copy is taken). */
export function quantile(xs: ArrayLike<number>, q: number): number {
  const buf = new Float64Array(xs.length);
  let n = 0;
  for (let i = 0; i < xs.length; i++) if (Number.isFinite(xs[i])) buf[n++] = xs[i];
  return quantileInPlace(buf, n, q);
}

/** Hoare-style quickselect: afterwards xs[k] is the k-th smallest of xs[lo..hi], smaller ones before it. */
function select(xs: Float64Array | number[], lo: number, hi: number, k: number): number {
  while (hi > lo) {
    // median of three as the pivot keeps sorted or constant runs (common in usage data) from degrading
    const mid = (lo + hi) >> 1;
    const a = xs[lo];
    const b = xs[mid];
    const c = xs[hi];
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (xs[i] < pivot) i++;
      while (xs[j] > pivot) j--;
      if (i <= j) {
        const t = xs[i];
        xs[i] = xs[j];
        xs[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return xs[k];
  }
  return xs[k];
}

/** Clamp to [0, 1] (forecasts are utilisation fractions); NaN becomes 0. */
export function clamp01(x: number): number {
  return x > 1 ? 1 : x > 0 ? x : 0;
}
