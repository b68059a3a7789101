import { ValidationError } from '../model/errors';
import type { Model } from '../model/model';
import type { Issue } from '../model/types';
import { isObject, show } from '../model/validate';
import type { RuntimeTruth } from './simulator';

/**
 * Checks what a caller says the tasks really take against the instance: `trueSeconds` names its jobs and
 * stages with seconds > 0, `runtimeSigma` is a number in [0, 3]. Every problem at once, named by path.
 */
export function validateRuntimeTruth(model: Model, trueSeconds: unknown, runtimeSigma: unknown, prefix = ''): RuntimeTruth {
  const issues: Issue[] = [];
  const at = (p: string) => (prefix ? `${prefix}.${p}` : p);
  const out: RuntimeTruth = {};
  if (runtimeSigma !== undefined && runtimeSigma !== null) {
    if (typeof runtimeSigma !== 'number' || !(runtimeSigma >= 0 && runtimeSigma <= 3)) issues.push({ path: at('runtimeSigma'), message: `must be a number in [0, 3], got ${show(runtimeSigma)}` });
    else out.runtimeSigma = runtimeSigma;
  }
  if (trueSeconds !== undefined && trueSeconds !== null) {
    if (!isObject(trueSeconds)) issues.push({ path: at('trueSeconds'), message: 'must be an object of job -> stage -> seconds per task' });
    else {
      out.trueSeconds = {};
      for (const [job, stages] of Object.entries(trueSeconds as Record<string, unknown>)) {
        const j = model.jobIndex.get(job);
        if (j === undefined) {
          issues.push({ path: at(`trueSeconds.${job}`), message: `the instance has no job "${job}"` });
          continue;
        }
        if (!isObject(stages)) {
          issues.push({ path: at(`trueSeconds.${job}`), message: 'must be an object of stage -> seconds per task' });
          continue;
        }
        out.trueSeconds[job] = {};
        for (const [stage, secs] of Object.entries(stages as Record<string, unknown>)) {
          if (!model.jobs[j].stages.some((g) => model.stages[g].id === stage)) issues.push({ path: at(`trueSeconds.${job}.${stage}`), message: `job "${job}" has no stage "${stage}"` });
          else if (typeof secs !== 'number' || !(secs > 0) || !Number.isFinite(secs)) issues.push({ path: at(`trueSeconds.${job}.${stage}`), message: `must be a number of seconds > 0, got ${show(secs)}` });
          else out.trueSeconds[job][stage] = secs;
        }
      }
    }
  }
  if (issues.length) throw new ValidationError('runtimeTruth', issues);
  return out;
}
