import type { Model } from '../model/model';
import { posumScore, PosumScore, ScoredJob } from '../evaluate/posum-score';
import type { JobOutcome } from './job-outcome';

/**
 * POSUM's P = (V_D, S_B, C) of a plan (Table I; evaluate/posum-score.ts): a deadline-class job with a
 * deadline counts in V_D, every other job in S_B; e_i is the planned duration of the job's tasks (start to end,
 * so a priced plan's fetch slots count, as the simulator counts a task's fetch in its runtime); a rejected
 * job counts as never ending before the window closes; every node is up from slot 0 to the makespan.
 */
export function planScore(model: Model, start: Float64Array, end: Float64Array, counted: Uint8Array, jobs: readonly JobOutcome[], makespanSlots: number): PosumScore {
  const S = model.slotSeconds;
  const taskSeconds = new Float64Array(model.jobs.length);
  for (let i = 0; i < model.nTasks; i++) if (counted[i]) taskSeconds[model.taskJob[i]] += (end[i] - start[i]) * S;
  const scored: ScoredJob[] = model.jobs.map((job, j) => ({
    deadlineJob: model.doc.jobs[j].class === 'deadline',
    releaseSeconds: job.release * S,
    endSeconds: jobs[j].endSlot === null ? null : jobs[j].endSlot! * S,
    deadlineSeconds: job.deadline >= 0 ? job.deadline * S : null,
    taskSeconds: taskSeconds[j],
  }));
  const nodes = model.doc.nodes.map((n) => ({ uptimeSeconds: makespanSlots * S, costPerHour: n.costPerHour ?? 0 }));
  return roundScore(posumScore(scored, nodes, model.T * S));
}

export function roundScore(s: PosumScore): PosumScore {
  const r = (x: number) => Math.round(x * 1e4) / 1e4;
  return { vd: r(s.vd), sb: r(s.sb), c: r(s.c) };
}
