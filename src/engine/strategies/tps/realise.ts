import { Model } from '../../model/model';
import { Builder } from '../../schedule/sgs';
import { Schedule } from '../../schedule/schedule';
import { TpsJobs } from './smr';

export interface Realised {
  schedule: Schedule;
  /** Jobs rejected because they could only end late and late costs money. */
  rejectedLate: number;
  /** Jobs of the SAS sequence that ended late and were moved behind everything else. */
  deferred: number;
}

const STOP_CHECK_JOBS = 4;

/**
 * The final schedule, built task by task against the real per-node capacity (the aggregated P_R ignores
 * how demand splits over nodes, so its plan is a job order, not a placement). Jobs are placed whole in
 * SAS order, each at its earliest; a job that turns out late is taken out again: rejected when late
 * revenue is negative (rejecting earns 0), otherwise moved to the leftovers, since a late job earns the
 * same whenever it ends and must not delay the jobs behind it. The leftovers (SMR's abandoned jobs SAS
 * did not revive, and the deferred ones) then fill what is free: first those that still end on time,
 * then those that earn nothing worse than 0 late (more scheduled tasks is the engine's first objective).
 * Returns null when `stop` says so.
 */
export function realise(model: Model, sequence: readonly number[], jobs: TpsJobs, runnable: (j: number) => boolean, stop: () => boolean): Realised | null {
  const b = new Builder(model, null);
  const inSequence = new Uint8Array(model.jobs.length);
  for (const j of sequence) inSequence[j] = 1;
  const leftovers: number[] = [];
  for (let j = 0; j < model.jobs.length; j++) if (!inSequence[j] && runnable(j)) leftovers.push(j);
  let rejectedLate = 0;
  let deferred = 0;
  let n = 0;
  const end = (j: number) => {
    let e = 0;
    for (const g of model.jobs[j].stages) e = Math.max(e, b.stageEnd[g]);
    return e;
  };
  const late = (j: number) => {
    const job = model.jobs[j];
    return job.hasRevenue && job.deadline >= 0 && end(j) > job.deadline;
  };

  for (const j of sequence) {
    if (++n % STOP_CHECK_JOBS === 0 && stop()) return null;
    if (!b.placeJob(j) || !late(j)) continue;
    b.unplaceJob(j);
    if (model.jobs[j].revenueLate < 0) rejectedLate++;
    else (leftovers.push(j), deferred++);
  }

  // Leftovers in deadline order: on-time ones first, then whatever does not lose money.
  leftovers.sort((a, c) => jobs.due[a] - jobs.due[c] || model.jobs[a].release - model.jobs[c].release || a - c);
  const second: number[] = [];
  for (const j of leftovers) {
    if (++n % STOP_CHECK_JOBS === 0 && stop()) return null;
    if (!model.jobs[j].hasRevenue) {
      second.push(j);
      continue;
    }
    if (!b.placeJob(j)) continue;
    if (late(j)) {
      b.unplaceJob(j);
      second.push(j);
    }
  }
  for (const j of second) {
    if (++n % STOP_CHECK_JOBS === 0 && stop()) return null;
    const job = model.jobs[j];
    if (job.hasRevenue && job.revenueLate < 0) {
      rejectedLate++;
      continue;
    }
    b.placeJob(j);
  }
  return { schedule: b.schedule, rejectedLate, deferred };
}
