import { Model, taskSeconds } from '../../model/model';
import { sharedByCopies } from '../../simulate/fork';

/**
 * What POSUM's policies assume a task takes before any of its stage has ended: per stage, one task's
 * seconds on a node of the cluster's mean speed (work / mean speed, or durationSeconds); per job, the sum
 * over its tasks (e_i of Table I as planned).
 */
export function taskEstimates(model: Model): { stageSeconds: Float64Array; jobTaskSeconds: Float64Array } {
  const meanSpeed = model.speed.reduce((a, b) => a + b, 0) / Math.max(1, model.K);
  const stageSeconds = Float64Array.from(model.stages, (s) => taskSeconds(s, meanSpeed));
  const jobTaskSeconds = new Float64Array(model.jobs.length);
  model.stages.forEach((s, g) => (jobTaskSeconds[s.job] += s.tasks * stageSeconds[g]));
  // Read only: the copies of a run share them with the policies that hold them.
  return { stageSeconds: sharedByCopies(stageSeconds), jobTaskSeconds: sharedByCopies(jobTaskSeconds) };
}

/**
 * Per job, 1 when POSUM treats it as a deadline job (class deadline with a deadline), else 0: the allocation
 * policies' DC set and the provisioners' dlx/maxbsd split. Read only, shared by the copies of a run.
 */
export function deadlineJobs(model: Model): Uint8Array {
  return sharedByCopies(Uint8Array.from(model.jobs, (job, j) => (model.doc.jobs[j].class === 'deadline' && job.deadline >= 0 ? 1 : 0)));
}
