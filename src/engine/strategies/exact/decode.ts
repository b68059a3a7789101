import { Model } from '../../model/model';
import { Profile } from '../../schedule/profile';
import { Schedule } from '../../schedule/schedule';
import { MilpLayout } from './model-builder';
import { lastIndexAtMost } from './windows';

/**
 * Column values of a schedule (a MIP start), or null when some task sits outside the columns
 * (e.g. it ends after the horizon), in which case the solver simply starts without it.
 */
export function encodeStart(model: Model, layout: MilpLayout, numCols: number, schedule: Schedule): Float64Array | null {
  const x = new Float64Array(numCols);
  const w = layout.windows;
  const makespan = schedule.makespan();
  if (makespan > layout.horizon) return null;
  x[layout.colC] = makespan;
  for (let j = 0; j < model.jobs.length; j++) {
    x[layout.colY[j]] = schedule.accepted[j];
    const o = layout.colOnTime?.[j] ?? -1;
    if (o >= 0 && schedule.accepted[j] && schedule.jobEnd(j) <= model.jobs[j].deadline) x[o] = 1;
  }
  for (let g = 0; g < model.stages.length; g++) {
    const s = model.stages[g];
    if (!schedule.accepted[s.job]) continue;
    let end = 0;
    for (let i = s.firstTask; i < s.firstTask + s.tasks; i++) {
      const k = schedule.node[i];
      const slots = w.slots[g][k];
      const at = lastIndexAtMost(slots, schedule.start[i]);
      if (at < 0 || slots[at] !== schedule.start[i] || layout.colStart[g][k] < 0) return null;
      // Y counts tasks started at or before each slot: this task counts from its own slot on.
      const c0 = layout.colStart[g][k];
      for (let q = at; q < slots.length; q++) x[c0 + q] += 1;
      end = Math.max(end, schedule.end(i));
    }
    if (layout.doneCol[g] >= 0)
      for (let t = Math.max(end, w.ef[g]); t < w.lf[g]; t++) x[layout.doneCol[g] + t - w.ef[g]] = 1;
  }
  return x;
}

/**
 * Turns an integer solution into a schedule: the count of tasks of stage g started on node k at slot t
 * is Y[g,k,t] - Y[g,k,t-1], and the stage's tasks are handed out to those starts in order. Values are
 * rounded (the solver's integrality tolerance), then the result is checked against the exact rules
 * of FORMAT.md with a Profile; null when anything is off, so the caller falls back to its incumbent.
 */
export function decodeSolution(model: Model, layout: MilpLayout, x: Float64Array): Schedule | null {
  const w = layout.windows;
  const sched = new Schedule(model);
  const profile = new Profile(model);
  for (let j = 0; j < model.jobs.length; j++) {
    const yv = Math.round(x[layout.colY[j]]);
    if (yv !== 0 && yv !== 1) return null;
    sched.accepted[j] = yv;
  }
  for (let j = 0; j < model.jobs.length; j++) {
    const job = model.jobs[j];
    if (!sched.accepted[j]) continue;
    for (const g of job.stages) {
      const s = model.stages[g];
      let next = s.firstTask;
      let firstStart = Infinity;
      for (let k = 0; k < model.K; k++) {
        const c0 = layout.colStart[g][k];
        if (c0 < 0) continue;
        const slots = w.slots[g][k];
        let prev = 0;
        for (let q = 0; q < slots.length; q++) {
          const cum = Math.round(x[c0 + q]);
          const count = cum - prev;
          prev = cum;
          if (count < 0 || next + count > s.firstTask + s.tasks) return null;
          for (let c = 0; c < count; c++, next++) {
            if (!profile.fits(k, g, slots[q])) return null;
            profile.add(k, g, slots[q]);
            sched.node[next] = k;
            sched.start[next] = slots[q];
            firstStart = Math.min(firstStart, slots[q]);
          }
        }
      }
      if (next !== s.firstTask + s.tasks || firstStart < job.release) return null;
      for (const p of s.preds) {
        const ps = model.stages[p];
        for (let i = ps.firstTask; i < ps.firstTask + ps.tasks; i++) if (sched.end(i) > firstStart) return null;
      }
    }
  }
  return sched;
}
