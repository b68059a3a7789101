import { Model } from '../model/model';
import { NodePacking } from './node-packing';

/** Distinct heads and tails tried per base shape (any subset of windows is valid, fewer is weaker). */
const MAX_HEADS = 16;
const MAX_TAILS = 8;
/**
 * Node-steps (a node visited in one feasibility test, or one node-slot of a per-node curve) the argument may
 * spend in one bound computation: ~10-20 ms on the papers' clusters. Its windows visit every node, so on a
 * data centre's 1,000 nodes that budget ends before the first base shape is done (mixedPacking 0 where the
 * whole argument, ~50M steps and 0.2 s, lifts the bound from 137 to 143 slots: issue 40, bench/SCALE.md);
 * it grows to MIXED_WORK_PER_CELL per node-slot cell (~100M, ~0.5 s, at 1,000 nodes x 480 slots). Bases go
 * largest first and stop when it is spent; the windows already tried still give a valid bound.
 */
const MIXED_WORK_BUDGET = 2_000_000;
const MIXED_WORK_PER_CELL = 200;

/**
 * Packing across task shapes, by dominance. Take a base shape A (a demand vector and per-node durations)
 * and any task of another shape B whose demand is at least A's in every metric. On node k, replace a B task
 * running in [s, s + dB_k) by f_k = floor(dB_k / dA_k) A tasks run back to back in [s, s + f_k dA_k): at
 * every slot they use one task slot and no more of any metric than the B task did, so the node stays
 * feasible, and the count of A tasks the node completes inside any window containing [s, s + dB_k) grows
 * by f_k. Hence in any feasible schedule, for a window [a, b) and each node k,
 *   (A tasks on k inside the window) + sum over B tasks on k inside it of f_k  <=  nA_k(a, b),
 * the most A tasks node k alone can complete inside [a, b) (NodePacking.perNodeCurves, exact or an
 * overcount). Summed over nodes, with the B tasks spread over the nodes at the least total f (each node
 * taking at most as many B tasks as B alone fits on it there, when B has a profile; otherwise uncapped),
 * the left side can only shrink, so the condition stays necessary. The tasks of stages with head >= a and
 * tail >= q must all run inside [a, C - q): the smallest C that passes is a bound. Tasks with a smaller tail
 * may end after the window (lateOptions), and what is left of them inside it still blocks a lane at its end
 * (stubSlack). Shapes that dominate nothing are left out, which keeps it valid.
 *
 * `packingOf` must be built with a concurrency cap of at least every accepted task (the converted
 * schedule may run more A tasks at once than there are A tasks).
 */
export function mixedPackingBound(
  model: Model,
  isIn: (j: number) => boolean,
  head: Int32Array,
  tail: Int32Array,
  packingOf: (NodePacking | undefined)[],
  bases: NodePacking[],
): number {
  const accepted: number[] = [];
  model.stages.forEach((s, g) => isIn(s.job) && accepted.push(g));
  const work = { left: Math.max(MIXED_WORK_BUDGET, MIXED_WORK_PER_CELL * model.K * model.T) };
  let best = 0;
  for (const base of bases) best = Math.max(best, boundForBase(model, accepted, head, tail, packingOf, base, work));
  return best;
}

/** The stages of one shape other than the base that dominate it, with their per-node conversion factors. */
interface Dominating {
  stages: number[];
  /** The shape's profile (caps the tasks per node), when it has one. */
  packing: NodePacking | undefined;
  /** Nodes by ascending factor, and factor[k] = floor(dB_k / dA_k). */
  order: number[];
  factor: Int32Array;
  /** The shape's per-node durations, and the base's. */
  dur: Int32Array;
  baseDur: Int32Array;
}

/** A late option: up to `cap` tasks of the group on node `k` that end after the window, counting `factor` each. */
interface LateOption {
  k: number;
  factor: number;
  cap: number;
}

/** One dominating shape's tasks in a window: those that must end inside it, and those that may end after. */
interface MixedGroup {
  d: Dominating;
  /** Tasks with head >= a and tail >= q: they run inside [a, b). */
  inside: number;
  /** Tasks with head >= a and a smaller tail: they may end in [b, C - tail) instead (see lateOptions). */
  late: number;
  /** caps[k][b]: the most of the shape node k alone completes inside [a, b); uncapped when undefined. */
  caps: Int32Array[] | undefined;
  /** How far after b the late tasks may end (see lateOptions). */
  L: number;
  /** The late options under the loose cap, the same for every b of the window (empty without late tasks). */
  looseOptions: LateOption[];
  /** Whether its late tasks leave stubs on some node (leavesStubs): then it spends the window's stub slack. */
  leavesStubs: boolean;
}

function boundForBase(
  model: Model,
  accepted: number[],
  head: Int32Array,
  tail: Int32Array,
  packingOf: (NodePacking | undefined)[],
  base: NodePacking,
  work: { left: number },
): number {
  const { T, K, M } = model;
  const searchSteps = Math.ceil(Math.log2(T + 1)) + 1;
  const curvesBuilt = new Set<string>();
  /** Charges the per-node curves of `p` from head a to the budget once; false when they do not fit. */
  const affordCurves = (p: NodePacking, id: string, a: number) => {
    const key = `${id}@${a}`;
    if (curvesBuilt.has(key)) return true;
    let cost = 0; // the greedy (slots x duration per node) and the cumulative pass
    for (let k = 0; k < K; k++) cost += (T - a + 1) * (Math.min(p.dur[k], T) + 1);
    if (cost > work.left) return false;
    work.left -= cost;
    curvesBuilt.add(key);
    return true;
  };
  const own: number[] = [];
  const others = new Map<string, Dominating>();
  for (const g of accepted) {
    const s = model.stages[g];
    if (packingOf[g] === base) {
      own.push(g);
      continue;
    }
    let dominates = true;
    for (let m = 0; m < M && dominates; m++) dominates = s.demand[m] >= base.demand[m];
    if (!dominates) continue;
    const key = `${s.demand.join(',')}|${s.dur.join(',')}`;
    let d = others.get(key);
    if (!d) {
      const factor = new Int32Array(K);
      for (let k = 0; k < K; k++) factor[k] = Math.floor(s.dur[k] / base.dur[k]);
      const order = [...Array(K).keys()].sort((x, y) => factor[x] - factor[y] || x - y);
      others.set(key, (d = { stages: [], packing: packingOf[g], order, factor, dur: s.dur, baseDur: base.dur }));
    }
    d.stages.push(g);
  }
  if (others.size === 0) return 0; // the base alone is classPacking's business
  const all = [...own, ...[...others.values()].flatMap((d) => d.stages)];
  const heads = spread([...new Set(all.map((g) => head[g]))].sort((x, y) => x - y), MAX_HEADS);
  const tails = spread([...new Set(all.map((g) => tail[g]))].sort((x, y) => x - y), MAX_TAILS);
  const inWindow = (g: number, a: number, q: number) => head[g] >= a && tail[g] >= q;
  let best = 0;
  for (const a of heads) {
    if (a >= T) continue;
    if (!affordCurves(base, 'base', a)) return best;
    const baseCurves = base.perNodeCurves(a);
    for (const q of tails) {
      let nA = 0;
      for (const g of own) if (inWindow(g, a, q)) nA += model.stages[g].tasks;
      const groups: MixedGroup[] = [];
      for (const [key, d] of others) {
        let inside = 0;
        let late = 0;
        let lateTail = q;
        for (const g of d.stages) {
          if (head[g] < a) continue;
          if (tail[g] >= q) inside += model.stages[g].tasks;
          else {
            late += model.stages[g].tasks;
            lateTail = Math.min(lateTail, tail[g]);
          }
        }
        if (inside + late === 0) continue;
        // Without its curves a group is uncapped: weaker, still valid. Late tasks alone do not pay for
        // new curves (they go late where they can), but use curves an earlier window built.
        const capped = d.packing !== undefined && (inside > 0 || curvesBuilt.has(`${key}@${a}`)) && affordCurves(d.packing, key, a);
        const L = q - lateTail;
        groups.push({ d, inside, late, caps: capped ? d.packing!.perNodeCurves(a) : undefined, L, looseOptions: late > 0 ? lateOptions(d, a, undefined, L, K) : [], leavesStubs: late > 0 && leavesStubs(d, L) });
      }
      // Nothing mixed in this window, or nothing that must end inside it (then no b > a is forced).
      if (groups.length === 0 || nA + groups.reduce((n, g) => n + g.inside, 0) === 0) continue;
      // One fits(b): the base's room, each group's inside units, and the late options where there are late tasks.
      const lateGroups = groups.filter((g) => g.late > 0).length;
      const stepCost = K * (2 * groups.length + 1 + lateGroups);
      if (searchSteps * stepCost > work.left) return best;
      work.left -= searchSteps * stepCost;
      /**
       * Loose: late tasks capped by the lanes node k ever has from a (monotone in b, so binary search
       * applies). Tight: by the lanes it has where late tasks can run, around b (not monotone).
       */
      const fits = (b: number, tight: boolean) => {
        let room = 0;
        for (let k = 0; k < K; k++) room += baseCurves[k][b];
        let need = nA;
        // The per-node slack of the stub argument (see lateOptions) is spent by one group only.
        let stubs: StubContext | undefined = tight ? { base, baseCurves, a, b } : undefined;
        for (const group of groups) {
          const options = tight && group.late > 0 ? lateOptions(group.d, a, b, group.L, K, work, stubs) : group.looseOptions;
          if (group.leavesStubs) stubs = undefined;
          const spent = leastConversion(group, b, options);
          if (spent === undefined) return false;
          need += spent;
          if (need > room) return false;
        }
        return true;
      };
      if (!fits(T, false)) {
        best = T + 1;
        continue;
      }
      let lo = a + 1;
      let hi = T;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (fits(mid, false)) hi = mid;
        else lo = mid + 1;
      }
      // Every b below lo fails even loosely; scan up for the first that passes tightly. Whatever b the scan
      // stops at (the budget spent), every smaller b failed, so b + q stays a bound.
      let b = Math.max(lo, best - q);
      while (lateGroups > 0 && b <= T && work.left >= stepCost) {
        work.left -= stepCost;
        if (fits(b, true)) break;
        b++;
      }
      best = Math.max(best, Math.min(T + 1, b + q));
    }
  }
  return best;
}

/**
 * A task of a dominating shape with tail qB < q need not end inside [a, b = C - q): it ends by C - qB = b + L
 * (L = q - qB; the group's smallest qB gives the largest L, which is only weaker). Started at or after its
 * head >= a and ending by b + L, a late one (ending after b) on node k still runs at least dB_k - L slots
 * inside the window, so its conversion counts floor(max(0, dB_k - L) / dA_k) base tasks there. Late tasks
 * on node k run only in [b - dB_k + 1, b + L), so they split into at most cmax_k lanes (lateLanes), and one
 * lane holds at most 1 + floor((L - 1) / dB_k) of them (each ends in (b, b + L], ends dB_k apart). Without
 * b (loose) the cap is the same for every b, which keeps the loose fits(b) monotone; with `stubs`, the
 * tasks beyond a node's stub slack cost one base task more (stubSlack).
 */
function lateOptions(d: Dominating, a: number, b: number | undefined, L: number, K: number, work?: { left: number }, stubs?: StubContext): LateOption[] {
  const out: LateOption[] = [];
  for (let k = 0; k < K; k++) {
    const dB = d.dur[k];
    if (work) work.left -= dB + L;
    const lanes = lateLanes(d, k, a, b, L);
    if (lanes === 0) continue;
    const inside = Math.max(0, dB - L);
    const factor = Math.floor(inside / d.baseDur[k]);
    const cap = lanes * (1 + Math.floor((L - 1) / dB));
    const slack = stubs ? stubSlack(stubs, k, inside - factor * d.baseDur[k]) : Infinity;
    if (slack >= cap) out.push({ k, factor, cap });
    else {
      if (slack > 0) out.push({ k, factor, cap: slack });
      out.push({ k, factor: factor + 1, cap: cap - slack });
    }
  }
  return out.sort((x, y) => x.factor - y.factor || x.k - y.k);
}

/**
 * The most late tasks of the group that can run at once on node k. Loose (b undefined): the most of the
 * shape that fit at once from a - dB_k + 1 on, the same for every b. Tight: those over [b - dB_k + 1, b + L);
 * and when dB_k >= L every late task on k starts in [a, b + L - dB_k] (its head, and its end by b + L) and
 * ends after b, so all of them run at every slot of [b + L - dB_k, b]: at most the fewest that fit at once
 * there, and none when that interval starts before a.
 */
function lateLanes(d: Dominating, k: number, a: number, b: number | undefined, L: number): number {
  const dB = d.dur[k];
  if (b === undefined) return d.packing ? d.packing.mostAtOnceIn(k, a - dB + 1, Infinity) : Infinity;
  if (dB < L) return d.packing ? d.packing.mostAtOnceIn(k, b - dB + 1, b + L) : Infinity;
  const from = b + L - dB;
  if (from < a) return 0;
  return d.packing ? d.packing.fewestAtOnceIn(k, from, b + 1) : Infinity;
}

/** Whether a late task of the group leaves a stub (see stubSlack) on some node. */
function leavesStubs(d: Dominating, L: number): boolean {
  for (let k = 0; k < d.dur.length; k++) if (Math.max(0, d.dur[k] - L) % d.baseDur[k] > 0) return true;
  return false;
}

/** What the stub argument needs of the window: the base shape, its per-node curves from a, and [a, b). */
interface StubContext {
  base: NodePacking;
  baseCurves: Int32Array[];
  a: number;
  b: number;
}

/**
 * How many late tasks node k takes before each costs one base task more than its factor. Converting a late
 * task into `factor` base tasks from its start leaves a stub: it still holds a task slot and at least the
 * base's demand over [b - x, b), x = its inside run minus factor * dA_k (0 < x < dA_k). With r stubs on k,
 * the base tasks k completes inside [a, b) are those ending by b - x, at most N(a, b - x), plus those ending
 * in (b - x, b]; the latter all run at slot b - x (they last dA_k > x), beside the r stubs, so there are at
 * most c_k(b - x) - r of them. Hence every stub beyond slack = N(a, b - x) + c_k(b - x) - N(a, b) costs one
 * base task of the node's room N(a, b). The cost per node is convex (factor, then factor + 1), so the
 * cheapest-first order of leastConversion stays optimal. Infinity (no extra cost) when x = 0 or b - x < a.
 */
function stubSlack(ctx: StubContext, k: number, x: number): number {
  const { base, baseCurves, a, b } = ctx;
  if (x <= 0 || b - x < a) return Infinity;
  const curve = baseCurves[k];
  return Math.max(0, curve[b - x] + base.mostAtOnceIn(k, b - x, b - x + 1) - curve[b]);
}

/**
 * The least total conversion of a group's tasks into base tasks inside [a, b), or undefined when they do
 * not fit. The tasks that must end inside take the cheapest inside units first; the late ones then take the
 * cheapest units left, inside or late (`options`, ascending by factor). That is optimal: the late tasks may
 * use every unit the others may, so any assignment can swap its units until the inside-only tasks hold the
 * cheapest inside ones, at no cost. Inside units go in d.order, so a cursor (node d.order[i], `used` of its
 * room taken) is all the state they need.
 */
function leastConversion(group: MixedGroup, b: number, options: LateOption[]): number | undefined {
  const { d, caps } = group;
  const n = d.order.length;
  let i = 0;
  let used = 0;
  const room = () => (caps ? caps[d.order[i]][b] : Infinity) - used;
  /** Moves the cursor past nodes whose inside room is taken. */
  const skipFull = () => {
    while (i < n && room() <= 0) (i++), (used = 0);
  };
  let spent = 0;
  let left = group.inside;
  for (skipFull(); left > 0 && i < n; skipFull()) {
    const y = Math.min(left, room());
    spent += y * d.factor[d.order[i]];
    left -= y;
    used += y;
  }
  if (left > 0) return undefined;
  left = group.late;
  let j = 0;
  while (left > 0) {
    const insideFactor = i < n ? d.factor[d.order[i]] : Infinity;
    const lateFactor = j < options.length ? options[j].factor : Infinity;
    if (insideFactor === Infinity && lateFactor === Infinity) return undefined;
    if (insideFactor <= lateFactor) {
      const y = Math.min(left, room());
      spent += y * insideFactor;
      left -= y;
      used += y;
      skipFull();
    } else {
      const y = Math.min(left, options[j].cap);
      spent += y * lateFactor;
      left -= y;
      j++;
    }
  }
  return spent;
}

/** At most n of the sorted values, evenly spread and always including the first (the weakest head/tail). */
function spread(sorted: number[], n: number): number[] {
  if (sorted.length <= n) return sorted;
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(sorted[Math.floor((i * (sorted.length - 1)) / (n - 1))]);
  return out;
}
