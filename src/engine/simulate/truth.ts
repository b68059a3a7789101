import { ValidationError } from '../model/errors';
import type { Model } from '../model/model';
import type { Issue } from '../model/types';
import { isObject, show } from '../model/validate';
import { Random } from '../random';

/** What the tasks really take when it differs from the instance (SimSettings.runtimeTruth). */
export interface RuntimeTruth {
  trueSeconds?: Record<string, Record<string, number>>;
  runtimeSigma?: number;
}

/**
 * Each task's true runtime in a run: its stage's work (or duration) as the instance gives it or as
 * `trueSeconds` replaces it, times the task's lognormal noise factor (`runtimeSigma`).
 */
export class TaskRuntimes {
  private readonly stageWork: Float64Array; // GFLOP per task, or -durationSeconds
  /** Per task: its true runtime over the stage's (1 unless options.runtimeTruth.runtimeSigma). */
  private readonly runtimeFactor: Float64Array;

  constructor(
    private readonly model: Model,
    truth: RuntimeTruth = {},
    seed = 1,
  ) {
    const { nTasks } = model;
    this.stageWork = Float64Array.from(model.stages, (s) => {
      const given = truth.trueSeconds?.[model.jobs[s.job].id]?.[s.id];
      if (given !== undefined) return s.work !== null ? given : -given; // seconds at speed 1 = GFLOP at 1 GFLOP/s
      return s.work ?? -s.durationSeconds!;
    });
    this.runtimeFactor = new Float64Array(nTasks).fill(1);
    const sigma = truth.runtimeSigma ?? 0;
    if (!(sigma >= 0)) throw new Error('runtimeSigma must be >= 0');
    if (sigma > 0) {
      // Its own stream: the same tasks get the same factors whatever the driver draws from sim.rng.
      const draw = new Random((seed ^ 0x5eed5eed) >>> 0);
      for (let i = 0; i < nTasks; i++) this.runtimeFactor[i] = Math.exp(sigma * draw.gaussian() - (sigma * sigma) / 2);
    }
  }

  /** Seconds task i computes on node k at full speed. */
  seconds(i: number, k: number): number {
    const w = this.stageWork[this.model.taskStage[i]];
    return (w >= 0 ? w / this.model.speed[k] : -w) * this.runtimeFactor[i];
  }
}

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
