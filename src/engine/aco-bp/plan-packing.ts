import type { Model } from '../model/model';
import type { Random } from '../random';
import { Profile } from '../schedule/profile';
import { Schedule } from '../schedule/schedule';
import type { BinRoom } from './combinations';
import { decide } from './decide';
import type { AcoBpParams } from './params';
import { preferredMask, stageCaps, waitsForPreferred } from './stage-caps';

export interface PackingStats {
  /** Decisions taken (one every C_t of schedule time while tasks were ready). */
  decisions: number;
  windows: number;
  colonyIterations: number;
  nonLocalBins: number;
  /** Bins given tasks beyond the fair shares because nothing within them fitted. */
  unfairBins: number;
}

/**
 * One ACO-BP pass over the horizon, in schedule time: every C_t (periodSeconds) the ready tasks (maps of
 * released jobs; a stage once every stage before it has ended) are packed into what each node has free at
 * that slot by one decision (decide.ts). A bin's combination is a set of containers for the period: each
 * runs its job's ready tasks back to back until the next decision (the reading of Algorithm 1 in which a
 * combination of n maps of a job keeps n containers of it busy, not n tasks once per 20 s). Jobs not complete
 * when the horizon ends are rejected whole. Packing units are stages (a job's map, its reduce): fairness
 * (Eq. 6) counts each stage as a job, which is the paper's reading for MapReduce jobs.
 */
export function packOnce(model: Model, rng: Random, p: AcoBpParams, overTime: () => boolean): { schedule: Schedule; stats: PackingStats } {
  const { T, M, K, stages } = model;
  const schedule = new Schedule(model);
  const profile = new Profile(model);
  const period = Math.max(1, Math.round(p.periodSeconds / model.slotSeconds));
  const placed = new Uint8Array(model.nTasks);
  const unplaced = stages.map((s) => Array.from({ length: s.tasks }, (_, t) => s.firstTask + t));
  const stageEnd = new Int32Array(stages.length); // latest end of a placed task of the stage
  const readySince = new Int32Array(stages.length).fill(-1);
  const preferred: (Uint8Array | null)[] = stages.map(() => null);
  const stats: PackingStats = { decisions: 0, windows: 0, colonyIterations: 0, nonLocalBins: 0, unfairBins: 0 };
  const hurried: AcoBpParams = { ...p, iterations: 0 };

  const isReady = (g: number, t: number) =>
    unplaced[g].length > 0 && model.jobs[stages[g].job].release <= t && stages[g].preds.every((q) => unplaced[q].length === 0 && stageEnd[q] <= t);

  for (let t = 0; t < T; ) {
    const ready: number[] = [];
    for (let g = 0; g < stages.length; g++) if (isReady(g, t)) ready.push(g);
    if (ready.length === 0) {
      const next = nextEvent(t);
      if (next < 0) break;
      t = next;
      continue;
    }
    for (const g of ready) if (readySince[g] < 0) readySince[g] = t;
    const J = ready.length;
    const bins: BinRoom[] = [];
    const total = new Float64Array(M);
    for (let k = 0; k < K; k++) {
      const capacity = new Float64Array(M);
      const used = new Float64Array(M);
      for (let m = 0; m < M; m++) {
        capacity[m] = model.avail[k][m * T + t];
        used[m] = Math.min(capacity[m], profile.used[k][m * T + t]);
        total[m] += capacity[m];
      }
      bins.push({ capacity, used, slotsLeft: model.taskLimit[k][t] - profile.count[k][t] });
    }
    const allocated = ready.map(() => new Float64Array(M));
    const running = new Set<number>();
    for (let i = 0; i < model.nTasks; i++) {
      if (!placed[i] || schedule.start[i] > t || schedule.end(i) <= t) continue;
      running.add(model.taskJob[i]);
      const j = ready.findIndex((g) => stages[g].job === model.taskJob[i]);
      if (j >= 0) for (let m = 0; m < M; m++) allocated[j][m] += stages[model.taskStage[i]].demand[m];
    }
    for (const g of ready) running.add(stages[g].job);
    const localTasks = new Map<number, number[][]>(); // stage -> node -> its unplaced tasks with a replica there
    const localCaps = bins.map(() => new Int32Array(J));
    const anyCaps = bins.map(() => new Int32Array(J));
    ready.forEach((g, j) => {
      const s = stages[g];
      const preferred = waitsForPreferred(model, g, (t - readySince[g]) / period, p) ? preferredOf(g) : null;
      let localByNode: Int32Array | null = null;
      if (s.blocks) {
        localByNode = new Int32Array(K);
        const lists: number[][] = Array.from({ length: K }, () => []);
        for (const i of unplaced[g]) for (const k of s.blocks[i - s.firstTask]) localByNode[k]++, lists[k].push(i);
        localTasks.set(g, lists);
      }
      const caps = stageCaps(K, unplaced[g].length, localByNode, preferred);
      for (let k = 0; k < K; k++) (anyCaps[k][j] = caps.any[k]), (localCaps[k][j] = caps.local[k]);
    });
    const decision = decide(
      { bins, localCaps, anyCaps, pool: { demands: ready.map((g) => stages[g].demand), remaining: Int32Array.from(ready, (g) => unplaced[g].length), allocated, total, activeJobs: running.size } },
      overTime() ? hurried : p,
      rng,
    );
    stats.decisions++;
    stats.windows += decision.windows;
    stats.colonyIterations += decision.iterations;
    stats.nonLocalBins += decision.nonLocalBins;
    stats.unfairBins += decision.unfairBins;
    let started = 0;
    decision.counts.forEach((counts, k) => counts.forEach((n, j) => n > 0 && (started += start(ready[j], k, n, t, localTasks.get(ready[j])?.[k]))));
    ready.forEach((g) => (unplaced[g] = unplaced[g].filter((i) => !placed[i])));
    // Nothing started, nothing running, nothing to come, and capacity that never changes: it never will.
    if (started === 0 && !model.doc.usage && nextEvent(t) < 0) break;
    t += period;
  }
  model.jobs.forEach((job, j) => {
    if (job.stages.some((g) => unplaced[g].length > 0)) schedule.reject(j);
    else schedule.accepted[j] = 1;
  });
  return { schedule, stats };

  /**
   * Runs n containers of stage g on node k for the period [t, t + period): each takes the stage's ready
   * tasks one after another (local ones first, then rack-local, then any) while they start within the
   * period; a task may run past its end. How many tasks started.
   */
  function start(g: number, k: number, n: number, t: number, local: number[] | undefined): number {
    const s = stages[g];
    const until = Math.min(T, t + period) - 1;
    const rackLocal = (i: number) => model.racks[k] !== '' && s.blocks![i - s.firstTask].some((r) => model.racks[r] === model.racks[k]);
    const next = (): number => {
      for (const i of local ?? []) if (!placed[i]) return i;
      if (s.blocks) for (const i of unplaced[g]) if (!placed[i] && rackLocal(i)) return i;
      for (const i of unplaced[g]) if (!placed[i]) return i;
      return -1;
    };
    let started = 0;
    for (let c = 0; c < n; c++) {
      for (let cursor = t; cursor <= until; ) {
        const at = profile.earliestFit(k, g, cursor, until);
        const i = at < 0 ? -1 : next();
        if (i < 0) break;
        schedule.node[i] = k;
        schedule.start[i] = at;
        placed[i] = 1;
        profile.add(k, g, at);
        stageEnd[g] = Math.max(stageEnd[g], at + s.dur[k]);
        started++;
        cursor = at + s.dur[k];
      }
    }
    return started;
  }

  /** Pref_VM of a stage after others (Eq. 8-9), once: its predecessors are all placed when it is ready. */
  function preferredOf(g: number): Uint8Array {
    return (preferred[g] ??= preferredMask(model, g, (i) => schedule.node[i], p));
  }

  /** The next period boundary at which something can change (a task ends, a job is released), or -1. */
  function nextEvent(t: number): number {
    let next = Infinity;
    for (let i = 0; i < model.nTasks; i++) if (placed[i] && schedule.end(i) > t) next = Math.min(next, schedule.end(i));
    for (const job of model.jobs) if (job.release > t) next = Math.min(next, job.release);
    if (!Number.isFinite(next)) return -1;
    return t + Math.max(1, Math.ceil((next - t) / period)) * period;
  }
}
