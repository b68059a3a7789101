import { CAPACITY_EPS, Model } from '../../model/model';
import { Schedule } from '../../schedule/schedule';

/**
 * The local search's working solution with incrementally maintained score parts, so a move costs
 * O(duration x metrics) instead of a full re-evaluation:
 * - hard: cells (node, metric, slot) over capacity plus (node, slot) cells over maxTasks;
 * - scheduled: tasks of accepted jobs (medium level);
 * - makespan from a histogram of task ends; sumEnds as a tie-breaker that rewards compaction.
 * Per stage, histograms of task starts and ends give the precedence window of any task in O(1) amortised.
 */
export class LsState {
  readonly node: Int32Array;
  readonly start: Int32Array;
  readonly accepted: Uint8Array;
  readonly used: Float64Array[];
  readonly count: Int32Array[];
  hard = 0;
  scheduled = 0;
  makespan = 0;
  sumEnds = 0;
  private readonly endHist: Int32Array;
  private readonly stageEnds: Int32Array[];
  private readonly stageStarts: Int32Array[];
  readonly stageMaxEnd: Int32Array;
  readonly stageMinStart: Int32Array;

  constructor(
    readonly model: Model,
    init: Schedule,
  ) {
    const { T, nTasks, stages } = model;
    this.node = new Int32Array(nTasks).fill(-1);
    this.start = new Int32Array(nTasks).fill(-1);
    this.accepted = new Uint8Array(model.jobs.length);
    this.used = model.avail.map((a) => new Float64Array(a.length));
    this.count = model.avail.map(() => new Int32Array(T));
    this.endHist = new Int32Array(T + 2);
    this.stageEnds = stages.map(() => new Int32Array(T + 2));
    this.stageStarts = stages.map(() => new Int32Array(T + 2));
    this.stageMaxEnd = new Int32Array(stages.length);
    this.stageMinStart = new Int32Array(stages.length).fill(T);
    model.jobs.forEach((job, j) => {
      if (!init.accepted[j]) return;
      this.accepted[j] = 1;
      this.scheduled += job.taskCount;
      for (let i = job.firstTask; i < job.firstTask + job.taskCount; i++) this.place(i, init.node[i], init.start[i]);
    });
  }

  duration(i: number, k: number): number {
    return this.model.stages[this.model.taskStage[i]].dur[k];
  }

  /** Earliest start allowed by the job's release and the ends of predecessor stages. */
  earliestStart(i: number): number {
    const s = this.model.stages[this.model.taskStage[i]];
    let est = this.model.jobs[s.job].release;
    for (const p of s.preds) if (this.stageMaxEnd[p] > est) est = this.stageMaxEnd[p];
    return est;
  }

  /** Latest end allowed by the window and the starts of successor stages. */
  latestEnd(i: number): number {
    const s = this.model.stages[this.model.taskStage[i]];
    let lft = this.model.T;
    for (const q of s.succs) if (this.stageMinStart[q] < lft) lft = this.stageMinStart[q];
    return lft;
  }

  /** Adds task i at (k, t) to every structure; returns nothing, updates the score. */
  place(i: number, k: number, t: number): void {
    const g = this.model.taskStage[i];
    const s = this.model.stages[g];
    const end = t + s.dur[k];
    this.node[i] = k;
    this.start[i] = t;
    this.load(k, s.demand, t, end, 1);
    this.endHist[end]++;
    if (end > this.makespan) this.makespan = end;
    this.sumEnds += end;
    this.stageEnds[g][end]++;
    if (end > this.stageMaxEnd[g]) this.stageMaxEnd[g] = end;
    this.stageStarts[g][t]++;
    if (t < this.stageMinStart[g]) this.stageMinStart[g] = t;
  }

  /** Removes task i from every structure (inverse of place). */
  lift(i: number): void {
    const g = this.model.taskStage[i];
    const s = this.model.stages[g];
    const k = this.node[i];
    const t = this.start[i];
    const end = t + s.dur[k];
    this.load(k, s.demand, t, end, -1);
    if (--this.endHist[end] === 0 && end === this.makespan) {
      let m = end;
      while (m > 0 && this.endHist[m] === 0) m--;
      this.makespan = m;
    }
    this.sumEnds -= end;
    const se = this.stageEnds[g];
    if (--se[end] === 0 && end === this.stageMaxEnd[g]) {
      let m = end;
      while (m > 0 && se[m] === 0) m--;
      this.stageMaxEnd[g] = m;
    }
    const ss = this.stageStarts[g];
    if (--ss[t] === 0 && t === this.stageMinStart[g]) {
      const T = this.model.T;
      let m = t;
      while (m < T && ss[m] === 0) m++;
      this.stageMinStart[g] = m;
    }
    this.node[i] = -1;
    this.start[i] = -1;
  }

  private load(k: number, demand: Float64Array, from: number, to: number, sign: number): void {
    const { M, T } = this.model;
    const used = this.used[k];
    const av = this.model.avail[k];
    let hard = this.hard;
    for (let m = 0; m < M; m++) {
      const q = demand[m] * sign;
      if (q === 0) continue;
      const base = m * T;
      for (let t = from; t < to; t++) {
        const c = base + t;
        const limit = av[c] + CAPACITY_EPS;
        const before = used[c] > limit;
        used[c] += q;
        const after = used[c] > limit;
        if (before !== after) hard += after ? 1 : -1;
      }
    }
    const cnt = this.count[k];
    const cap = this.model.taskLimit[k];
    for (let t = from; t < to; t++) {
      const before = cnt[t] > cap[t];
      cnt[t] += sign;
      if (before !== cnt[t] > cap[t]) hard += before ? -1 : 1;
    }
    this.hard = hard;
  }

  /** True when task i (currently lifted) fits at (k, t) without any new violation. */
  fits(i: number, k: number, t: number): boolean {
    const { M, T } = this.model;
    const s = this.model.stages[this.model.taskStage[i]];
    const end = t + s.dur[k];
    if (t < 0 || end > T) return false;
    const used = this.used[k];
    const av = this.model.avail[k];
    const cnt = this.count[k];
    const cap = this.model.taskLimit[k];
    for (let x = t; x < end; x++) if (cnt[x] >= cap[x]) return false;
    for (let m = 0; m < M; m++) {
      const q = s.demand[m];
      if (q === 0) continue;
      const base = m * T;
      for (let x = t; x < end; x++) if (used[base + x] + q > av[base + x] + CAPACITY_EPS) return false;
    }
    return true;
  }

  /** Earliest t in [from, latestStart] where task i (lifted) fits on node k, or -1. */
  earliestFit(i: number, k: number, from: number, latestStart: number): number {
    const { M, T } = this.model;
    const s = this.model.stages[this.model.taskStage[i]];
    const d = s.dur[k];
    const last = Math.min(latestStart, T - d);
    const used = this.used[k];
    const av = this.model.avail[k];
    const cnt = this.count[k];
    const cap = this.model.taskLimit[k];
    let run = Math.max(0, from);
    for (let x = run; run <= last; x++) {
      let ok = cnt[x] < cap[x];
      for (let m = 0; m < M && ok; m++) {
        const q = s.demand[m];
        if (q !== 0 && used[m * T + x] + q > av[m * T + x] + CAPACITY_EPS) ok = false;
      }
      if (!ok) run = x + 1;
      else if (x - run + 1 >= d) return run;
    }
    return -1;
  }

  toSchedule(): Schedule {
    const s = new Schedule(this.model);
    s.node.set(this.node);
    s.start.set(this.start);
    s.accepted.set(this.accepted);
    return s;
  }
}
