/** Accuracy of runtime predictions: absolute percentage errors, summarised as POSUM's evaluation does. */

export interface Accuracy {
  /** Predictions scored (tasks the predictor had something to say about). */
  n: number;
  /** Share of the tasks asked about that it could predict. */
  coverage: number;
  medianApe: number;
  p90Ape: number;
}

/** |predicted - true| / true, in percent. */
export function ape(predicted: number, truth: number): number {
  return (100 * Math.abs(predicted - truth)) / truth;
}

function quantile(sorted: number[], q: number): number {
  if (!sorted.length) return NaN;
  const pos = q * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

export function summarise(apes: number[], asked: number): Accuracy {
  const s = [...apes].sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 10) / 10;
  return { n: s.length, coverage: asked > 0 ? Math.round((1000 * s.length) / asked) / 1000 : 0, medianApe: r(quantile(s, 0.5)), p90Ape: r(quantile(s, 0.9)) };
}

/** Collects APEs per predictor name and per history bucket. */
export class AccuracyTable {
  private readonly apes = new Map<string, number[]>();
  private readonly asked = new Map<string, number>();

  ask(bucket: string): void {
    this.asked.set(bucket, (this.asked.get(bucket) ?? 0) + 1);
  }

  add(predictor: string, bucket: string, predicted: number | null, truth: number): void {
    if (predicted === null || !Number.isFinite(predicted) || !(truth > 0)) return;
    for (const key of [`${predictor}\u0000all`, `${predictor}\u0000${bucket}`]) {
      let list = this.apes.get(key);
      if (!list) this.apes.set(key, (list = []));
      list.push(ape(predicted, truth));
    }
  }

  /** predictor -> bucket ('all' and each bucket) -> accuracy. */
  result(predictors: readonly string[], buckets: readonly string[]): Record<string, Record<string, Accuracy>> {
    const asked = (b: string) => (b === 'all' ? [...this.asked.values()].reduce((a, x) => a + x, 0) : (this.asked.get(b) ?? 0));
    return Object.fromEntries(
      predictors.map((p) => [p, Object.fromEntries(['all', ...buckets].map((b) => [b, summarise(this.apes.get(`${p}\u0000${b}`) ?? [], asked(b))]))]),
    );
  }
}
