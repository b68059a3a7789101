import { CAPACITY_EPS, Model } from '../model/model';

/**
 * How many tasks of one shape (a demand vector and per-node durations) the nodes can complete inside a
 * window, as a relaxation that never undercounts. Per node k and slot t at most c_k(t) such tasks run at
 * once: maxTasks, and per metric floor(available / demand). Inside a window [a, b) node k then completes
 * at most
 *   - floor(sum_t c_k(t) / d_k)              (each task holds a run slot for d_k slots), and
 *   - cmax_k * floor((b - a) / d_k)          (tasks that overlap at most cmax_k at a time are intervals
 *                                             colourable with cmax_k colours; each colour holds
 *                                             floor((b - a) / d_k) disjoint runs of length d_k).
 * cmax_k is taken over [a, T) rather than [a, b), which is only weaker. Note the tempting per-lane count
 * (lane i open where c_k(t) >= i) is NOT valid when c varies: two overlapping tasks may need lane 2 at
 * different slots.
 *
 * When the work budget allows, completion() counts exactly instead (exactCurve): per node, the most
 * tasks of duration d_k that fit under c_k(t) from a given head.
 */
export class NodePacking {
  /** prefix[k][t] = sum of c_k over [0, t). */
  private readonly prefix: Int32Array[] = [];
  /** suffixMax[k][t] = max of c_k over [t, T); 0 at T. */
  private readonly suffixMax: Int32Array[] = [];
  /** conc[k][t] = c_k(t). */
  private readonly conc: Int32Array[] = [];
  /** Exact completion curves by head (see exactCurve). */
  private readonly curves = new Map<number, Int32Array>();
  /** Per-node exact completion curves by head (see perNodeCurves). */
  private readonly nodeCurves = new Map<number, Int32Array[]>();

  /**
   * `cap` bounds c_k(t) from above (never more than the tasks there are to run are useful at once),
   * which keeps the sums finite when neither maxTasks nor any demand limits concurrency.
   */
  constructor(
    private readonly model: Model,
    readonly demand: Float64Array,
    readonly dur: Int32Array,
    cap: number,
    /** Slot-steps the exact curves may still spend, shared by every shape of one bound computation. */
    private readonly work: { left: number },
  ) {
    const { T, M, K } = model;
    // Int32 sums over T slots: the cap keeps them below 2^30 (groupByShape builds no profile where it could bind).
    const limit = Math.max(1, Math.min(cap, Math.floor(0x3fffffff / (T + 1))));
    for (let k = 0; k < K; k++) {
      const av = model.avail[k];
      const tasks = model.taskLimit[k];
      const c = Int32Array.from({ length: T }, (_, t) => Math.max(0, Math.min(limit, tasks[t])));
      for (let m = 0; m < M; m++) {
        const q = demand[m];
        if (!(q > 0)) continue;
        // n tasks fit when n * demand <= available + 1e-9 (FORMAT.md); the extra 1e-9 only rounds up.
        for (let t = 0, i = m * T; t < T; t++, i++) {
          const n = Math.floor((av[i] + CAPACITY_EPS) / q + 1e-9);
          if (n < c[t]) c[t] = n;
        }
      }
      const prefix = new Int32Array(T + 1);
      for (let t = 0; t < T; t++) prefix[t + 1] = prefix[t] + c[t];
      const suffixMax = new Int32Array(T + 1);
      for (let t = T - 1; t >= 0; t--) suffixMax[t] = Math.max(suffixMax[t + 1], c[t]);
      this.prefix.push(prefix);
      this.suffixMax.push(suffixMax);
      this.conc.push(c);
    }
  }

  /** The most tasks of this shape that can run at once on node k in [from, to); from `from` on when to >= T. */
  mostAtOnceIn(k: number, from: number, to: number): number {
    if (to >= this.model.T) return this.suffixMax[k][Math.max(0, Math.min(from, this.model.T))];
    let n = 0;
    const c = this.conc[k];
    for (let t = Math.max(0, from); t < Math.min(to, this.model.T); t++) if (c[t] > n) n = c[t];
    return n;
  }

  /** The fewest tasks of this shape that can run at once on node k at any slot of [from, to) (within the horizon). */
  fewestAtOnceIn(k: number, from: number, to: number): number {
    let n = Infinity;
    const c = this.conc[k];
    for (let t = Math.max(0, from); t < Math.min(to, this.model.T); t++) if (c[t] < n) n = c[t];
    return n === Infinity ? 0 : n;
  }

  /** Most tasks of this shape the nodes can complete inside [a, b). */
  capacity(a: number, b: number): number {
    let n = 0;
    for (let k = 0; k < this.model.K; k++) n += this.nodeCapacity(k, a, b);
    return n;
  }

  /** Most tasks of this shape node k can complete inside [a, b) by the runs and lanes counts above. */
  private nodeCapacity(k: number, a: number, b: number): number {
    const d = this.dur[k];
    const byRuns = Math.floor((this.prefix[k][b] - this.prefix[k][a]) / d);
    const byLanes = this.suffixMax[k][a] * Math.floor((b - a) / d);
    return Math.min(byRuns, byLanes);
  }

  /** Earliest end b such that `tasks` tasks can complete inside [a, b); T + 1 when none within T. */
  completion(a: number, tasks: number): number {
    const { T } = this.model;
    if (tasks <= 0) return a;
    if (a >= T || this.capacity(a, T) < tasks) return T + 1;
    // One task: the critical path's contiguous earliest end is exact already; save the curve.
    const curve = tasks > 1 ? this.exactCurve(a) : undefined;
    let lo = a + 1;
    let hi = T;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((curve ? curve[mid] : this.capacity(a, mid)) >= tasks) hi = mid;
      else lo = mid + 1;
    }
    return curve && curve[lo] < tasks ? T + 1 : lo;
  }

  /**
   * curve[b] = the most tasks the nodes can complete inside [a, b), exactly for this shape alone;
   * undefined once the work budget is spent. Per node, the greedy that starts at each slot t, in order,
   * as many tasks as fit under c_k over [t, t + d_k) given those already started is optimal for every b
   * at once: in an optimal set that agrees with it before t but starts fewer at t, the next later start
   * can move to t (same length, it only frees slots at the end), so the greedy never completes fewer; and
   * its tasks that end by b are exactly what the greedy restricted to [a, b) starts (later starts end later).
   */
  private exactCurve(a: number): Int32Array | undefined {
    const cached = this.curves.get(a);
    if (cached) return cached;
    const { T, K } = this.model;
    let cost = 0;
    for (let k = 0; k < K; k++) cost += (T - a) * Math.min(this.dur[k], T);
    if (cost > this.work.left) return undefined; // all or nothing: a partial curve would be wasted work
    const curve = new Int32Array(T + 1);
    for (let k = 0; k < K; k++) {
      const ends = this.greedyEnds(k, a);
      if (!ends) return undefined;
      for (let b = a + 1; b <= T; b++) curve[b] += ends[b];
    }
    for (let b = a + 1; b <= T; b++) curve[b] += curve[b - 1];
    this.curves.set(a, curve);
    return curve;
  }

  /**
   * The same per node: out[k][b] = the most tasks node k alone can complete inside [a, b) (the exact greedy
   * count, or when the work budget is spent the runs-and-lanes capacity, also never an undercount).
   */
  perNodeCurves(a: number): Int32Array[] {
    const cached = this.nodeCurves.get(a);
    if (cached) return cached;
    const { T, K } = this.model;
    const out: Int32Array[] = [];
    for (let k = 0; k < K; k++) {
      const ends = this.greedyEnds(k, a);
      const curve = new Int32Array(T + 1);
      for (let b = a + 1; b <= T; b++) curve[b] = ends ? curve[b - 1] + ends[b] : this.nodeCapacity(k, a, b);
      out.push(curve);
    }
    this.nodeCurves.set(a, out);
    return out;
  }

  /** ends[b] = tasks the greedy (see exactCurve) starts on node k from a that end at b; undefined over budget. */
  private greedyEnds(k: number, a: number): Int32Array | undefined {
    const { T } = this.model;
    const d = this.dur[k];
    const cost = (T - a) * Math.min(d, T);
    if (cost > this.work.left) return undefined;
    this.work.left -= cost;
    const ends = new Int32Array(T + 1);
    const running = new Int32Array(T);
    const c = this.conc[k];
    for (let t = a; t + d <= T; t++) {
      let n = c[t] - running[t];
      for (let u = t + 1; u < t + d && n > 0; u++) n = Math.min(n, c[u] - running[u]);
      if (n <= 0) continue;
      for (let u = t; u < t + d; u++) running[u] += n;
      ends[t + d] += n;
    }
    return ends;
  }

  /**
   * Shortest span L in which `tasks` tasks can complete wherever it lies in the horizon: per node the
   * most that ever run at once (cmax over the whole horizon) times the runs of d_k that fit in L.
   * Infinity when no node ever fits one.
   */
  shortestSpan(tasks: number): number {
    const { T, K } = this.model;
    if (tasks <= 0) return 0;
    const fits = (L: number) => {
      let n = 0;
      for (let k = 0; k < K && n < tasks; k++) n += this.suffixMax[k][0] * Math.floor(L / this.dur[k]);
      return n >= tasks;
    };
    if (!fits(T)) return Infinity;
    let lo = 1;
    let hi = T;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (fits(mid)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}
