import { ValidationError } from '../model/errors';
import { Model } from '../model/model';
import { InstanceDoc, Issue } from '../model/types';
import { validateInstance } from '../model/validate';

/** node -> metric -> one fraction per slot: the shape of an instance's `usage` (FORMAT.md). */
export type UsageDoc = Record<string, Record<string, number[]>>;

/**
 * The regular customers' *actual* utilisation U(k,m,t), which the simulator replays and which may differ
 * from the forecast the plan was made with. Missing nodes and metrics are 0 (as for `usage`). Past the
 * window the series wrap around: the traces are daily, and a run that overruns its window (relaunch
 * storms) still needs a load to replay.
 */
export class ActualUsage {
  /** frac[k][m * T + t] */
  private readonly frac: Float64Array[];

  constructor(
    private readonly model: Model,
    usage: UsageDoc | undefined,
    /** Rows already made (frac[k][m * T + t]), taken as they are instead of `usage`'s (observedThen). */
    rows?: Float64Array[],
  ) {
    const { T, M } = model;
    this.frac = rows ?? model.nodeIds.map((id) => {
      const row = new Float64Array(M * T);
      const per = own(usage, id);
      model.metrics.forEach((m, mi) => {
        const series = own(per, m);
        if (series) for (let t = 0; t < T && t < series.length; t++) row[mi * T + t] = series[t];
      });
      return row;
    });
  }

  /**
   * This load up to slot `s0` included, `after`'s from the next slot on (both over the same model): what a
   * look-ahead at slot s0 knows, the load observed so far then the forecast (POSUM's replay, before every slot
   * where it may decide: rows copied whole rather than value by value through a document).
   */
  observedThen(after: ActualUsage, s0: number): ActualUsage {
    const { T, M } = this.model;
    const upTo = Math.min(T, s0 + 1);
    const rows = after.frac.map((row, k) => {
      const c = row.slice();
      for (let m = 0; m < M; m++) c.set(this.frac[k].subarray(m * T, m * T + upTo), m * T);
      return c;
    });
    return new ActualUsage(this.model, undefined, rows);
  }

  /** U(k, m, slot), slot >= 0 (wraps around past the window). */
  at(k: number, m: number, slot: number): number {
    const T = this.model.T;
    return this.frac[k][m * T + (slot % T)];
  }

  /**
   * U(k, m) a share `frac` in [0, 1) of the way through `slot`, for the controllers that check within a
   * slot (SimOptions.qosPeriodSeconds): each slot's value is the load at the slot's start, and the load
   * moves linearly to the next slot's value (the first slot's again past the window). Deterministic, equal
   * to at() at every slot start, and a burst sampled at slot t+1 shows as a ramp during slot t.
   */
  within(k: number, m: number, slot: number, frac: number): number {
    const a = this.at(k, m, slot);
    return frac <= 0 ? a : a + (this.at(k, m, slot + 1) - a) * frac;
  }
}

/**
 * Checks an `--actual` document the way the instance's own `usage` is checked (same rules, same messages),
 * with paths under `actual.` so the error names the offending field.
 */
export function validateActualUsage(doc: InstanceDoc, raw: unknown): UsageDoc {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new ValidationError('actual usage', [{ path: 'actual', message: 'must be an object of node -> metric -> fractions (the shape of the instance\'s "usage")' }]);
  try {
    validateInstance({ ...doc, usage: raw });
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    const issues: Issue[] = e.issues
      .filter((i) => i.path === 'usage' || i.path.startsWith('usage.'))
      .map((i) => ({ path: 'actual' + i.path.slice('usage'.length), message: i.message }));
    if (issues.length > 0) throw new ValidationError('actual usage', issues);
  }
  return raw as UsageDoc;
}

function own<V>(obj: Record<string, V> | undefined, key: string): V | undefined {
  return obj !== undefined && Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}
