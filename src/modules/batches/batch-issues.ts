import type { Issue, JobSpec } from '../../engine/model/types';
import { isObject } from '../../engine/model/validate';
import { byElement, engineIssues, JOB_FIELDS, STAGE_FIELDS, unknownFields } from '../common/document-validation';

/**
 * Everything wrong with a batch's jobs. The engine's validator runs on a wrapper instance whose metrics are
 * the demand keys the jobs use, with one node large enough for anything and a very long window, so only the
 * jobs themselves can be wrong (stage graph cycles, unknown `after` stages, work vs durationSeconds,
 * duplicate ids, ...). Whether a cluster has the demanded metrics is checked when a solve uses the batch.
 */
export function batchIssues(jobs: unknown[]): Issue[] {
  const metrics = new Set<string>();
  for (const j of jobs)
    if (isObject(j) && Array.isArray((j as JobSpec).stages))
      for (const s of (j as JobSpec).stages) if (isObject(s) && isObject(s.demand)) for (const m of Object.keys(s.demand)) if (m.length > 0) metrics.add(m);
  const names = metrics.size ? [...metrics] : ['cpu'];
  // Blocks name nodes of the cluster a solve will pair the batch with: checked then, not here; the wrapper
  // has every node they mention, so only their shape (one list per task, strings, no repeats) is checked.
  const nodeIds = new Set<string>(['any']);
  for (const j of jobs)
    if (isObject(j) && Array.isArray((j as JobSpec).stages))
      for (const s of (j as JobSpec).stages) if (isObject(s) && Array.isArray(s.blocks)) for (const r of s.blocks) if (Array.isArray(r)) for (const n of r) if (typeof n === 'string') nodeIds.add(n);
  const capacity = Object.fromEntries(names.map((m) => [m, Number.MAX_SAFE_INTEGER]));
  const wrapper = {
    name: 'batch',
    horizon: { slots: 2 ** 31 - 1, slotSeconds: 1 },
    metrics: names,
    nodes: [...nodeIds].map((id) => ({ id, capacity })),
    jobs,
  };
  // Every non-empty demand key is a metric of the wrapper, so the engine can only call "" unknown.
  // A stored batch may leave a stage's durations out: a solve predicts them from the runtime history.
  const issues = engineIssues(wrapper, /^jobs(\[|\.|$)/, { durationsMayBePredicted: true }).map((i) =>
    i.path.endsWith('.demand.') ? { path: `${i.path.slice(0, -1)}[""]`, message: 'a metric name must be a non-empty string' } : i,
  );
  jobs.forEach((j, i) => {
    issues.push(...unknownFields(j, `jobs[${i}]`, JOB_FIELDS));
    if (isObject(j) && Array.isArray((j as JobSpec).stages))
      (j as JobSpec).stages.forEach((s, si) => issues.push(...unknownFields(s, `jobs[${i}].stages[${si}]`, STAGE_FIELDS)));
  });
  return byElement(issues);
}
