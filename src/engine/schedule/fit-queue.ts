import { CAPACITY_EPS, Model } from '../model/model';
import { Profile } from './profile';

/**
 * The node choice of the serial schedule generation (Builder.placeTask, Decoder.place, without priced
 * transfers) without looking at every node for every task: per class of stages, a min-heap of the nodes keyed
 * by the task's end on them ('earliestFinish') or by (start, length) ('earliestStart'), ties by node index;
 * or on mirrored time by start alone (Justifier's latest end, with a horizon per job release).
 * A class is a shape (equal demand and durations: a scan cannot tell such stages apart) and an earliest
 * start: its stages choose alike at any moment, so they share one heap and one memory (all the maps of a data
 * centre's jobs released together are one class, however their tasks interleave in a list).
 *
 * A key is exact when the node's usage has not changed since its earliest fit was found (fitVersion equals
 * nodeVersion), else a lower bound: usage only grows while a schedule is built, so a node's earliest fit
 * for a stage can only move later (the memory `from[]` the SGS already kept). choose() refreshes the top
 * until it is exact; then no other node can end (start) earlier, since every key is at most its true value.
 * Only the node just committed to changes, so that is usually one short scan and one sift per task instead
 * of a loop over all K nodes. A refresh scans only as far as the least exact key seen: beyond it the node
 * cannot win and keeps a lower bound.
 *
 * Ties keep the callers' rules exactly: the smallest node index (no generator), the first in a rotation
 * (Decoder's random node), or the first in a shuffled node order (Builder's): every node whose exact key
 * equals the least one is collected, and the rule picks among them.
 *
 * The caller reports every change of a node's usage: changed(k) when load was added, freed(k) when some was
 * taken back (an undone job: the lower bounds of that node no longer hold, for any class), reset() for a new
 * schedule.
 *
 * Up to `directMaxNodes` nodes the heaps do not pay: the choice is the plain loop over every node, with a memory
 * per stage of where each node's next fit can be (what Decoder, Builder and Justifier did before the heaps). On
 * PSPLIB's single node the classes' bookkeeping halved ls's iterations in a second (2026-11-28: 125-150k against
 * 270-345k before the heaps on five j30 instances; with the loop 270-390k). A decode and a right-justification of
 * a 40-job ephemeral instance cost the same both ways at 2-4 nodes, 1.1x more by the loop at 6, 1.6x at 16, 2.1x
 * at 32. Both ways choose the same node and start (test/engine/fit-queue.test.ts runs its comparisons both ways).
 */
/** FitQueue's rules as numbers (compared on every key). */
const END = 0;
const START = 1;
const START_LENGTH = 2;

export class FitQueue {
  /** At most this many (class, node) entries, about 80 MB: classes beyond are dropped and found again (tests lower it). */
  static maxEntries = 1 << 22;
  /** Clusters of at most this many nodes choose by the plain loop (chooseDirect); tests set it to compare both ways. */
  static directMaxNodes = 4;

  /** Start of the node the last choose() returned. */
  start = -1;
  /** After a scan that found no fit: the slot after the last one that did not fit. */
  after = 0;
  private readonly K: number;
  private readonly T: number;
  private readonly nodeVersion: Int32Array;
  /**
   * from[c*K+k]: no task of class c fits on node k in [its earliest start, from) (and it fits there when
   * fitVersion is current).
   */
  private from: Int32Array;
  private fitVersion: Int32Array;
  /** Heap of class c: nodes hNode[c*K .. c*K+hSize[c]-1] with keys hKey[...]. */
  private hNode: Int32Array;
  private hKey: Float64Array;
  private hSize: Int32Array;
  /** The heap of class c is to be (re)built from from[] (0), or is current (1). */
  private built: Uint8Array;
  /**
   * Classes by (shape, earliest start, horizon), numbered as they come; the arrays per class grow up to
   * maxClasses, then all are dropped and numbering starts again. classHorizon[c]: the slot its tasks must end by.
   */
  private readonly classes = new Map<number, number>();
  /** Per stage, the class it had for the earliest start stageEst[g] while epoch was stageEpoch[g]. */
  private readonly stageClass: Int32Array;
  private readonly stageEst: Int32Array;
  private readonly stageHorizon: Int32Array;
  private classHorizon: Int32Array;
  private readonly stageEpoch: Int32Array;
  private epoch = 0;
  private readonly maxClasses: number;
  private readonly tied: Int32Array;
  private readonly stack: Int32Array;
  private readonly mark: Uint8Array;
  /**
   * Classes of one shape share what is known across earliest starts: shapeFrom[h*K+k], no task of shape h
   * fits on node k in [shapeEst[h], shapeFrom) (exactly there when shapeVersion is current). A class whose
   * earliest start is at least shapeEst[h] starts from it instead of scanning every node afresh (the reduces
   * of a data centre's jobs), and adds what it finds when its scan began within what is known.
   */
  private readonly shapeOf: Int32Array;
  private readonly shapeEst: Int32Array;
  private readonly shapeFrom: Int32Array;
  private readonly shapeVersion: Int32Array;
  /** The plain loop (K <= directMaxNodes), its memory per stage: dFrom[g*K+k] as from[] of a class, for dEst[g] and dHorizon[g] in dEpoch[g]. */
  private readonly direct: boolean;
  private readonly dFrom: Int32Array;
  private readonly dVersion: Int32Array;
  private readonly dEst: Int32Array;
  private readonly dHorizon: Int32Array;
  private readonly dEpoch: Int32Array;
  private readonly ruleId: number;

  constructor(
    readonly model: Model,
    readonly profile: Profile,
    /**
     * What a node is chosen by: 'end' (earliest finish), 'startLength' (earliest start, then the shorter:
     * Builder's 'earliestStart'), 'start' (earliest start alone).
     */
    rule: 'end' | 'startLength' | 'start' = 'end',
    /**
     * Time runs backwards: start t stands for the task on slots T-1-t down to T-t-d, i.e. ending at T - t
     * (Justifier's right-justification: the latest end is the earliest mirrored start, rule 'start').
     */
    private readonly mirror = false,
  ) {
    const S = model.stages.length;
    const K = (this.K = model.K);
    this.T = model.T;
    this.nodeVersion = new Int32Array(K);
    // Room for a few classes, grown up to maxClasses (a class holds 20 bytes per node).
    this.maxClasses = Math.max(1, Math.min(S, Math.floor(FitQueue.maxEntries / K)));
    const cap = Math.min(this.maxClasses, 64, S);
    this.from = new Int32Array(cap * K);
    this.fitVersion = new Int32Array(cap * K).fill(-1);
    this.hNode = new Int32Array(cap * K);
    this.hKey = new Float64Array(cap * K);
    this.hSize = new Int32Array(cap);
    this.built = new Uint8Array(cap);
    this.classHorizon = new Int32Array(cap);
    this.stageClass = new Int32Array(S);
    this.stageEst = new Int32Array(S).fill(-1);
    this.stageHorizon = new Int32Array(S);
    this.stageEpoch = new Int32Array(S).fill(-1);
    this.tied = new Int32Array(K);
    this.stack = new Int32Array(2 * K + 2);
    this.mark = new Uint8Array(K);
    this.shapeOf = new Int32Array(S);
    const shapes = new Map<string, number>();
    model.stages.forEach((st, g) => {
      const id = `${st.demand.join(',')}|${st.dur.join(',')}`;
      let h = shapes.get(id);
      if (h === undefined) shapes.set(id, (h = shapes.size));
      this.shapeOf[g] = h;
    });
    this.shapeEst = new Int32Array(shapes.size).fill(-1);
    this.shapeFrom = new Int32Array(shapes.size * K);
    this.shapeVersion = new Int32Array(shapes.size * K).fill(-1);
    this.ruleId = rule === 'end' ? END : rule === 'start' ? START : START_LENGTH;
    this.direct = K <= FitQueue.directMaxNodes;
    const dn = this.direct ? S : 0;
    this.dFrom = new Int32Array(dn * K);
    this.dVersion = new Int32Array(dn * K);
    this.dEst = new Int32Array(dn);
    this.dHorizon = new Int32Array(dn);
    this.dEpoch = new Int32Array(dn).fill(-1);
  }

  /** A new schedule (empty profile): nothing remembered. */
  reset(): void {
    this.epoch++;
    if (this.direct) return; // no classes, no shapes
    this.classes.clear();
    this.shapeEst.fill(-1);
  }

  /** Load was added on node k. */
  changed(k: number): void {
    this.nodeVersion[k]++;
  }

  /** Load was taken back on node k: its lower bounds no longer hold, and every heap may hold a key too high. */
  freed(k: number): void {
    this.nodeVersion[k]++;
    const K = this.K;
    for (let x = k; x < this.from.length; x += K) this.from[x] = 0;
    for (let x = k; x < this.dFrom.length; x += K) this.dFrom[x] = 0;
    for (let h = 0; h < this.shapeEst.length; h++) this.shapeFrom[h * K + k] = this.shapeEst[h];
    this.built.fill(0);
  }

  /**
   * The node a task of stage g (earliest start est) goes to, its start in `start`; -1 when it fits nowhere
   * within the horizon. Ties: rot >= 0, the first node from rot on (k = rot, rot+1, ..., K-1, 0, ...); else
   * `order` given, the first in it; else the smallest index. A task must end by `horizon` (default T).
   */
  choose(g: number, est: number, rot: number, order: ArrayLike<number> | null, horizon = this.T): number {
    if (this.direct) return this.chooseDirect(g, est, rot, order, horizon);
    const K = this.K;
    const c = this.classOf(g, est, horizon);
    const base = c * K;
    if (!this.built[c]) this.build(c, g, est);
    const { hNode, hKey, hSize, from } = this;
    // Refresh until the top is exact; `ub`, the least exact key seen, bounds how far a refresh need look.
    let ub = Infinity;
    while (hSize[c] > 0 && hKey[base] !== Infinity && !this.exactAt(base, 0)) ub = this.refreshAt(c, g, base, 0, est, ub);
    if (hSize[c] === 0 || hKey[base] === Infinity) {
      hSize[c] = 0; // only nodes that fit nowhere are left
      return -1;
    }
    if ((rot <= 0 && !order) || K === 1) {
      this.start = from[base + hNode[base]];
      return hNode[base];
    }
    // Every node whose exact key equals the least one: the entries with that key form a subtree at the top
    // (a refresh only raises a key and sifts it down within its own subtree). Then the tie rule among them.
    const best = hKey[base];
    const { tied, stack } = this;
    let n = 0;
    let sp = 0;
    stack[sp++] = 0;
    while (sp > 0) {
      const x = stack[--sp];
      if (x >= hSize[c] || hKey[base + x] !== best) continue;
      if (!this.exactAt(base, x)) {
        this.refreshAt(c, g, base, x, est, best);
        stack[sp++] = x;
        continue;
      }
      tied[n++] = hNode[base + x];
      stack[sp++] = 2 * x + 1;
      stack[sp++] = 2 * x + 2;
    }
    let win = tied[0];
    if (order) {
      const mark = this.mark;
      for (let y = 0; y < n; y++) mark[tied[y]] = 1;
      for (let p = 0; p < order.length; p++)
        if (mark[order[p]]) {
          win = order[p];
          break;
        }
      for (let y = 0; y < n; y++) mark[tied[y]] = 0;
    } else {
      let bestRank = K;
      for (let y = 0; y < n; y++) {
        const k = tied[y];
        const r = k >= rot ? k - rot : k - rot + K;
        if (r < bestRank) (bestRank = r), (win = k);
      }
    }
    this.start = from[base + win];
    return win;
  }

  /**
   * choose() as a loop over every node in the order of the tie rule, a strictly smaller key winning, each node's
   * scan only as far as a key below the best one found: a few nodes cost less this way than through the heaps.
   */
  private chooseDirect(g: number, est: number, rot: number, order: ArrayLike<number> | null, horizon: number): number {
    const { K, dFrom, dVersion, nodeVersion } = this;
    const H = Math.max(0, Math.min(horizon, this.T)); // the last end allowed
    const base = g * K;
    if (this.dEpoch[g] !== this.epoch || this.dEst[g] !== est || this.dHorizon[g] !== H) {
      // Nothing known for this earliest start and horizon yet.
      // A loop, not fill(): a few entries, once per stage and decode (a builtin call costs more here).
      for (let k = 0; k < K; k++) (dFrom[base + k] = est), (dVersion[base + k] = -1);
      this.dEpoch[g] = this.epoch;
      this.dEst[g] = est;
      this.dHorizon[g] = H;
    }
    const dur = this.model.stages[g].dur;
    let bestK = -1;
    let bestT = -1;
    let bestKey = Infinity;
    for (let q = 0; q < K; q++) {
      const k = order ? order[q] : rot > 0 && q + rot < K ? q + rot : rot > 0 ? q + rot - K : q;
      const d = dur[k];
      const last = this.lastStart(H, d, bestKey);
      const idx = base + k;
      const f = dFrom[idx] > est ? dFrom[idx] : est;
      if (f > last) continue;
      // A fit found earlier on a node whose usage has not changed since is still the earliest one.
      let t = f;
      if (dVersion[idx] !== nodeVersion[k]) {
        t = this.scan(k, g, f, last, d);
        if (t < 0) {
          dFrom[idx] = this.after;
          continue;
        }
        dFrom[idx] = t;
        dVersion[idx] = nodeVersion[k];
      }
      const key = this.key(t, d);
      if (key < bestKey) (bestK = k), (bestT = t), (bestKey = key);
    }
    this.start = bestT;
    return bestK;
  }

  /**
   * First t in [f, last] such that slots t .. t+d-1 of node k all fit a task of stage g, or -1; then `after`
   * is the slot after the last one that did not fit (> last): no start before it can fit.
   */
  scan(k: number, g: number, f: number, last: number, d: number): number {
    const model = this.model;
    const M = model.M;
    const T = model.T;
    const dem = model.stages[g].demand;
    const used = this.profile.used[k];
    const count = this.profile.count[k];
    const av = model.avail[k];
    const taskLimit = model.taskLimit[k];
    const eps = CAPACITY_EPS; // a local: the imported binding is a property load on every use
    // Slot u of (mirrored) time t: t, or T - 1 - t.
    const dir = this.mirror ? -1 : 1;
    let runStart = f;
    for (let t = f, u = this.mirror ? T - 1 - f : f; runStart <= last; t++, u += dir) {
      let ok = count[u] < taskLimit[u];
      for (let m = 0; ok && m < M; m++) {
        const dm = dem[m];
        if (dm > 0 && used[m * T + u] + dm > av[m * T + u] + eps) ok = false;
      }
      if (!ok) runStart = t + 1;
      else if (t - runStart + 1 >= d) return runStart;
    }
    this.after = runStart;
    return -1;
  }

  private key(t: number, d: number): number {
    const r = this.ruleId;
    return r === END ? t + d : r === START ? t : t * (this.T + 1) + d;
  }

  /** The last start a key allows a node with length d (any later one has a greater key). */
  private lastFor(key: number, d: number): number {
    const r = this.ruleId;
    return r === END ? key - d : r === START ? key : Math.floor(key / (this.T + 1));
  }

  /** The last start of length d that ends by `horizon` with a key at most `key` (Infinity: any key). */
  private lastStart(horizon: number, d: number, key: number): number {
    const last = horizon - d;
    if (key === Infinity) return last;
    const bound = this.lastFor(key, d);
    return bound < last ? bound : last;
  }

  private exactAt(base: number, x: number): boolean {
    const k = this.hNode[base + x];
    return this.fitVersion[base + k] === this.nodeVersion[k];
  }

  /** The class of stage g with earliest start est and that horizon: a new one starts with nothing known. */
  private classOf(g: number, est: number, horizon: number): number {
    if (this.stageEst[g] === est && this.stageHorizon[g] === horizon && this.stageEpoch[g] === this.epoch) return this.stageClass[g];
    const T = this.T;
    const key = (this.shapeOf[g] * (T + 2) + Math.min(est, T + 1)) * (T + 1) + Math.max(0, Math.min(horizon, T));
    let c = this.classes.get(key);
    if (c === undefined) {
      if (this.classes.size === this.hSize.length) {
        if (this.hSize.length < this.maxClasses) this.grow(Math.min(this.maxClasses, 2 * this.hSize.length));
        else {
          // Full: start over (what the live classes knew is found again).
          this.classes.clear();
          this.epoch++;
        }
      }
      c = this.classes.size;
      this.classes.set(key, c);
      const K = this.K;
      this.from.fill(est, c * K, c * K + K);
      this.fitVersion.fill(-1, c * K, c * K + K);
      this.built[c] = 0;
      this.classHorizon[c] = Math.max(0, Math.min(horizon, T));
    }
    this.stageClass[g] = c;
    this.stageEst[g] = est;
    this.stageHorizon[g] = horizon;
    this.stageEpoch[g] = this.epoch;
    return c;
  }

  private grow(cap: number): void {
    const n = cap * this.K;
    const more = <A extends Int32Array | Float64Array | Uint8Array>(a: A, b: A): A => (b.set(a), b);
    this.from = more(this.from, new Int32Array(n));
    this.fitVersion = more(this.fitVersion, new Int32Array(n).fill(-1));
    this.hNode = more(this.hNode, new Int32Array(n));
    this.hKey = more(this.hKey, new Float64Array(n));
    this.hSize = more(this.hSize, new Int32Array(cap));
    this.built = more(this.built, new Uint8Array(cap));
    this.classHorizon = more(this.classHorizon, new Int32Array(cap));
  }

  /** Builds class c's heap (stage g's shape, earliest start est) from what is remembered, every key at least est. */
  private build(c: number, g: number, est: number): void {
    const K = this.K;
    const T = this.classHorizon[c]; // the last end allowed
    const base = c * K;
    const dur = this.model.stages[g].dur;
    const { from, fitVersion, hNode, hKey } = this;
    // The shape's memory holds for this class when it was found from no later than est; else it starts over here.
    const h = this.shapeOf[g];
    const hb = h * K;
    const { shapeFrom, shapeVersion } = this;
    if (this.shapeEst[h] < 0 || est < this.shapeEst[h]) {
      this.shapeEst[h] = est;
      shapeFrom.fill(est, hb, hb + K);
      shapeVersion.fill(-1, hb, hb + K);
    }
    let n = 0;
    for (let k = 0; k < K; k++) {
      const d = dur[k];
      if (from[base + k] < est) (from[base + k] = est), (fitVersion[base + k] = -1);
      const sf = shapeFrom[hb + k];
      if (sf > from[base + k] || (sf === from[base + k] && shapeVersion[hb + k] === this.nodeVersion[k]))
        (from[base + k] = sf), (fitVersion[base + k] = shapeVersion[hb + k]);
      const f = from[base + k];
      if (f > T - d) continue;
      hNode[base + n] = k;
      hKey[base + n] = this.key(f, d);
      n++;
    }
    this.hSize[c] = n;
    for (let x = (n >> 1) - 1; x >= 0; x--) this.siftDown(base, n, x);
    this.built[c] = 1;
  }

  /**
   * Entry x of class c's heap (stage g's shape) is a lower bound: scans its node from there, as far as `ub` (a
   * key some node already reaches exactly: beyond it this node cannot win; Infinity: to the horizon), and sifts
   * it down with its exact key, a higher bound, or Infinity when it fits nowhere any more. Returns ub lowered
   * to the exact key found.
   */
  private refreshAt(c: number, g: number, base: number, x: number, est: number, ub: number): number {
    const { hNode, hKey, from, fitVersion } = this;
    const T = this.classHorizon[c]; // the last end allowed
    const k = hNode[base + x];
    const d = this.model.stages[g].dur[k];
    const last = this.lastStart(T, d, ub);
    const idx = base + k;
    const f = from[idx] > est ? from[idx] : est;
    const t = f <= last ? this.scan(k, g, f, last, d) : -1;
    // The scan began within what the shape knows (est is at least the shape's: build()): it extends it.
    const sx = this.shapeOf[g] * this.K + k;
    const shared = f <= this.shapeFrom[sx] && f <= last;
    let key: number;
    if (t >= 0) {
      from[idx] = t;
      fitVersion[idx] = this.nodeVersion[k];
      if (shared) (this.shapeFrom[sx] = t), (this.shapeVersion[sx] = this.nodeVersion[k]);
      key = this.key(t, d);
      if (key < ub) ub = key;
    } else {
      // Every slot the scan looked at up to the last one that did not fit is passed: none is looked at twice.
      from[idx] = f <= last ? this.after : Math.max(f, last + 1);
      if (shared && this.after > this.shapeFrom[sx]) this.shapeFrom[sx] = this.after;
      key = from[idx] > T - d ? Infinity : this.key(from[idx], d);
    }
    hKey[base + x] = key;
    this.siftDown(base, this.hSize[c], x);
    return ub;
  }

  private siftDown(base: number, n: number, x: number): void {
    const { hNode, hKey } = this;
    const k = hNode[base + x];
    const key = hKey[base + x];
    for (;;) {
      let c = 2 * x + 1;
      if (c >= n) break;
      let ck = hKey[base + c];
      let cn = hNode[base + c];
      if (c + 1 < n) {
        const rk = hKey[base + c + 1];
        const rn = hNode[base + c + 1];
        if (rk < ck || (rk === ck && rn < cn)) (c = c + 1), (ck = rk), (cn = rn);
      }
      if (key < ck || (key === ck && k < cn)) break;
      hNode[base + x] = cn;
      hKey[base + x] = ck;
      x = c;
    }
    hNode[base + x] = k;
    hKey[base + x] = key;
  }
}
