import { Model } from '../../model/model';
import { Random } from '../../random';
import { Profile } from '../../schedule/profile';
import { Schedule } from '../../schedule/schedule';
import { loadProfile } from '../../lists/justify';

/**
 * Salamander Alg. 2, the makespan mutation, on a decoded schedule (it never makes the schedule worse):
 * lines 3-5 re-place a few random tasks on a random node at a random start such that every task still
 * ends by the current makespan and precedences and capacities hold; line 9 then shifts every task,
 * in start order, to its earliest feasible start on its node.
 */
export class MakespanMutation {
  private readonly profile: Profile;
  private readonly maxEnd: Int32Array;
  private readonly minStart: Int32Array;
  private readonly count: Int32Array;
  private readonly byStart: Int32Array;

  constructor(readonly model: Model) {
    this.profile = new Profile(model);
    this.maxEnd = new Int32Array(model.stages.length);
    this.minStart = new Int32Array(model.stages.length);
    this.count = new Int32Array(model.T + 1);
    this.byStart = new Int32Array(model.nTasks);
  }

  /** Mutates `s` in place; `tasks` is how many random tasks to re-place. */
  apply(s: Schedule, tasks: number, rng: Random): void {
    const model = this.model;
    loadProfile(this.profile, s);
    let makespan = 0;
    for (let g = 0; g < model.stages.length; g++) {
      this.stageSpan(s, g);
      if (this.maxEnd[g] > makespan) makespan = this.maxEnd[g];
    }
    for (let c = 0; c < tasks; c++) {
      const i = rng.int(model.nTasks);
      if (s.accepted[model.taskJob[i]]) this.replace(s, i, makespan, rng);
    }
    this.leftShift(s);
  }

  /** Alg. 2 line 5: a random node and start for task i that keep it within [est, latest end]. */
  private replace(s: Schedule, i: number, makespan: number, rng: Random): void {
    const model = this.model;
    const g = model.taskStage[i];
    const st = model.stages[g];
    const k0 = s.node[i];
    const t0 = s.start[i];
    this.profile.remove(k0, g, t0);
    let est = model.jobs[st.job].release;
    for (const p of st.preds) if (this.maxEnd[p] > est) est = this.maxEnd[p];
    let latestEnd = makespan;
    for (const h of st.succs) if (this.minStart[h] < latestEnd) latestEnd = this.minStart[h];
    const k = rng.int(model.K);
    const hi = latestEnd - st.dur[k];
    let t = -1;
    if (hi >= est) {
      t = this.profile.earliestFit(k, g, est + rng.int(hi - est + 1), hi);
      if (t < 0) t = this.profile.earliestFit(k, g, est, hi);
    }
    if (t < 0) this.profile.add(k0, g, t0);
    else {
      this.profile.add(k, g, t);
      s.node[i] = k;
      s.start[i] = t;
      this.stageSpan(s, g);
    }
  }

  /** Alg. 2 line 9 (tryReduceScheduleMakespan): earliest start on the same node, in start order. */
  private leftShift(s: Schedule): void {
    const model = this.model;
    const { count, byStart, maxEnd } = this;
    count.fill(0);
    let n = 0;
    for (let i = 0; i < model.nTasks; i++) if (s.node[i] >= 0) (count[s.start[i] + 1]++, n++);
    for (let t = 1; t < count.length; t++) count[t] += count[t - 1];
    for (let i = 0; i < model.nTasks; i++) if (s.node[i] >= 0) byStart[count[s.start[i]]++] = i;
    // A stage's tasks all start after its predecessors' tasks end, so in start order the predecessors'
    // new ends are final when a task is reached.
    maxEnd.fill(0);
    for (let q = 0; q < n; q++) {
      const i = byStart[q];
      const g = model.taskStage[i];
      const st = model.stages[g];
      const k = s.node[i];
      let est = model.jobs[st.job].release;
      for (const p of st.preds) if (maxEnd[p] > est) est = maxEnd[p];
      this.profile.remove(k, g, s.start[i]);
      // The task's own slot is free again, so this finds a start no later than the current one.
      const t = this.profile.earliestFit(k, g, est, s.start[i]);
      this.profile.add(k, g, t);
      s.start[i] = t;
      if (t + st.dur[k] > maxEnd[g]) maxEnd[g] = t + st.dur[k];
    }
  }

  private stageSpan(s: Schedule, g: number): void {
    const st = this.model.stages[g];
    let lo = this.model.T;
    let hi = 0;
    if (s.accepted[st.job])
      for (let i = st.firstTask; i < st.firstTask + st.tasks; i++) {
        const e = s.start[i] + st.dur[s.node[i]];
        if (s.start[i] < lo) lo = s.start[i];
        if (e > hi) hi = e;
      }
    this.minStart[g] = lo;
    this.maxEnd[g] = hi;
  }
}
