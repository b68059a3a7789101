/**
 * Stacking the GBT with the baselines, decided on the calibration rows only (the last training day, which
 * the trees never learned from): per metric and quantile the forecast is
 *   w_gbt gbt + w_slot slot-quantile + w_max max + offset
 * with the weights on a grid over the simplex and, for each candidate, the offset the split-conformal
 * rule gives its residuals (forecaster.ts conformalQuantile); the candidate with the lowest calibration
 * pinball loss after its offset wins. Where the trees are worse than a baseline on the calibration day the
 * forecast shrinks toward that baseline; where they are better the GBT keeps (most of) the weight. The
 * conformal offset keeps the calibration-day coverage at q whatever the weights.
 */
import { quantileInPlace } from './quantile';

export interface Blend {
  gbt: number;
  slot: number;
  max: number;
}

/** The GBT alone. */
export const NO_BLEND: Blend = { gbt: 1, slot: 0, max: 0 };

/** Grid step of the weights: 66 candidates, coarse enough not to fit one day's noise. */
const STEPS = 10;

/**
 * The weights and offset for calibration targets y with the three forecasts of each row (the baselines as
 * they would have forecast those rows from the days before). stacking false: the GBT alone, offset only.
 * With `scale` (one positive number per row: its node's own spread, forecaster.ts residualScale) the
 * offset is in units of each row's scale (normalised split conformal, Lei et al. 2018 sec. 5.2): one
 * pooled quantile of the normalised residuals, so a bursty node's spread is not added to a quiet one's.
 */
export function chooseBlend(
  y: Float64Array,
  gbt: Float64Array,
  slot: Float64Array,
  max: Float64Array,
  q: number,
  stacking: boolean,
  scale?: Float64Array,
): { blend: Blend; offset: number } {
  const n = y.length;
  const res = new Float64Array(n);
  const scratch = new Float64Array(n);
  const evaluate = (b: Blend) => {
    for (let k = 0; k < n; k++) res[k] = y[k] - (b.gbt * gbt[k] + b.slot * slot[k] + b.max * max[k]);
    // normalised conformal: the offset is a quantile of res / scale and each row moves by offset * scale
    for (let k = 0; k < n; k++) scratch[k] = scale ? res[k] / scale[k] : res[k];
    const offset = conformalOffset(scratch, q);
    let loss = 0;
    for (let k = 0; k < n; k++) {
      const u = res[k] - offset * (scale ? scale[k] : 1);
      loss += u >= 0 ? q * u : (q - 1) * u;
    }
    return { offset, loss };
  };
  let best = { blend: NO_BLEND, ...evaluate(NO_BLEND) };
  if (!stacking || n === 0) return { blend: best.blend, offset: best.offset };
  // the GBT's weight from high to low and strict improvement only: ties keep the model
  for (let g = STEPS; g >= 0; g--)
    for (let s = STEPS - g; s >= 0; s--) {
      const blend = { gbt: g / STEPS, slot: s / STEPS, max: (STEPS - g - s) / STEPS };
      const r = evaluate(blend);
      if (r.loss < best.loss) best = { blend, ...r };
    }
  return { blend: best.blend, offset: best.offset };
}

/**
 * The split-conformal level-q quantile of calibration residuals: the ceil((n + 1) q)-th smallest (the
 * largest when that exceeds n). Adding it to a forecast covers a fresh exchangeable point with probability
 * >= q (and < q + 1 / (n + 1) without ties). Reorders res.
 */
export function conformalOffset(res: Float64Array, q: number): number {
  const n = res.length;
  if (n === 0) return 0;
  const k = Math.min(n, Math.ceil((n + 1) * q)) - 1;
  return quantileInPlace(res, n, n === 1 ? 0 : k / (n - 1));
}

const buffer: number[] = [];

/**
 * The slot-quantile baseline (baselines.ts) for grid index target of y: the type-7 q-quantile of y at
 * target - day, target - 2 day, ... (those inside y and measured); fallback when there are none.
 */
export function slotQuantile(y: Float64Array, target: number, day: number, q: number, fallback: number): number {
  buffer.length = 0;
  for (let j = target - day; j >= 0; j -= day) if (j < y.length && !Number.isNaN(y[j])) buffer.push(y[j]);
  if (buffer.length === 0) return fallback;
  return quantileInPlace(buffer, buffer.length, q);
}
