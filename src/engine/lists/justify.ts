import { Model } from '../model/model';
import { FitQueue } from '../schedule/fit-queue';
import { Profile } from '../schedule/profile';
import { Schedule } from '../schedule/schedule';

/** Resets `profile` to the usage of the accepted tasks of `s`. */
export function loadProfile(profile: Profile, s: Schedule): void {
  const model = s.model;
  for (let k = 0; k < model.K; k++) {
    profile.used[k].fill(0);
    profile.count[k].fill(0);
  }
  for (let j = 0; j < model.jobs.length; j++) {
    if (!s.accepted[j]) continue;
    const job = model.jobs[j];
    for (let i = job.firstTask; i < job.firstTask + job.taskCount; i++) profile.add(s.node[i], model.taskStage[i], s.start[i]);
  }
}

/**
 * Backward half of forward-backward improvement (double justification, Valls et al. 2005), the
 * standard local improvement of SGS-based GAs for RCPSP: the tasks of a schedule are re-placed in
 * decreasing order of their end, each at the latest end <= the makespan that its successors and the
 * capacity allow (latest finish on any node, ties to the earlier node), i.e. a serial SGS on the
 * mirrored problem. Ordering the tasks by their start in this right-justified schedule and decoding
 * that list forward packs them to the left again, which often shortens the schedule. The node choice is a
 * FitQueue on mirrored time (the latest end is the earliest mirrored start), not a loop over every node.
 */
export class Justifier {
  private readonly profile: Profile;
  private readonly start: Int32Array;
  private readonly minStart: Int32Array;
  private readonly fits: FitQueue;
  private readonly count: Int32Array;
  private readonly byEnd: Int32Array;

  constructor(readonly model: Model) {
    this.profile = new Profile(model);
    this.start = new Int32Array(model.nTasks);
    this.minStart = new Int32Array(model.stages.length);
    this.fits = new FitQueue(model, this.profile, 'start', true);
    this.count = new Int32Array(model.T + 2);
    this.byEnd = new Int32Array(model.nTasks);
  }

  /**
   * Right-justifies `s` (its chromosome `prev` breaks ties) and writes into `out` the accepted tasks by
   * their right-justified start, then the rejected jobs' tasks. False when some task found no room
   * at or after its job's release, which time-varying capacity makes possible; `out` is then unusable.
   */
  backward(s: Schedule, makespan: number, prev: Int32Array, out: Int32Array): boolean {
    const { model, profile, start, minStart, count, fits } = this;
    const { K, T } = model;
    for (let k = 0; k < K; k++) {
      profile.used[k].fill(0);
      profile.count[k].fill(0);
    }
    minStart.fill(T);
    fits.reset();
    // Accepted tasks by decreasing end; equal ends in reverse chromosome order.
    count.fill(0);
    let nAcc = 0;
    for (let p = 0; p < prev.length; p++) if (s.accepted[model.taskJob[prev[p]]]) (count[T - s.end(prev[p])]++, nAcc++);
    for (let t = 1; t < count.length; t++) count[t] += count[t - 1];
    for (let p = prev.length - 1; p >= 0; p--) {
      const i = prev[p];
      if (s.accepted[model.taskJob[i]]) this.byEnd[--count[T - s.end(i)]] = i;
    }
    for (let q = 0; q < nAcc; q++) {
      const i = this.byEnd[q];
      const g = model.taskStage[i];
      const st = model.stages[g];
      let latestEnd = makespan;
      for (const h of st.succs) if (minStart[h] < latestEnd) latestEnd = minStart[h];
      const release = model.jobs[st.job].release;
      // The latest end <= latestEnd with a start >= release on any node, ties to the smaller node index: in
      // mirrored time the earliest start >= T - latestEnd whose end is <= T - release.
      const k = fits.choose(g, T - latestEnd, -1, null, T - release);
      if (k < 0) return false;
      const t = T - fits.start - st.dur[k];
      profile.add(k, g, t);
      fits.changed(k);
      start[i] = t;
      if (t < minStart[g]) minStart[g] = t;
    }
    // Forward list: by right-justified start (counting sort, stable in decreasing-end order).
    count.fill(0);
    for (let q = 0; q < nAcc; q++) count[start[this.byEnd[q]] + 1]++;
    for (let t = 1; t < count.length; t++) count[t] += count[t - 1];
    for (let q = nAcc - 1; q >= 0; q--) out[count[start[this.byEnd[q]]]++] = this.byEnd[q];
    let tail = nAcc;
    for (let p = 0; p < prev.length; p++) if (!s.accepted[model.taskJob[prev[p]]]) out[tail++] = prev[p];
    return true;
  }
}
