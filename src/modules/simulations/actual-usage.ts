import { ValidationError } from '../../engine/model/errors';
import { InstanceDoc, Issue } from '../../engine/model/types';
import { UsageDoc, validateActualUsage } from '../../engine/simulation';

/**
 * The simulator's own check of an actual usage document against the plan's instance (known nodes and
 * metrics, one fraction in [0, 1] per slot of the window), its paths moved under `prefix` (`actual.h01.cpu[3]`
 * becomes `actualUsage.h01.cpu[3]`). Returns the issues, none when the document is usable.
 */
export function actualUsageIssues(instance: InstanceDoc, raw: unknown, prefix: string): Issue[] {
  try {
    validateActualUsage(instance, raw);
    return [];
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    return e.issues.map((i) => ({ path: prefix + i.path.slice('actual'.length), message: i.message }));
  }
}

/** A forecast's usage cut to the plan's window (a forecast may look further ahead than the plan). */
export function trimToWindow(usage: UsageDoc, slots: number): UsageDoc {
  const out: UsageDoc = {};
  for (const [node, byMetric] of Object.entries(usage)) {
    out[node] = {};
    for (const [m, series] of Object.entries(byMetric)) out[node][m] = series.slice(0, slots);
  }
  return out;
}
