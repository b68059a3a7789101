import { Model } from '../model/model';
import { NodePacking } from './node-packing';

/** Distinct heads and tails tried per base shape (any subset of windows is valid, fewer is weaker). */
const MAX_HEADS = 16;
const MAX_TAILS = 8;
/**
 * Node-steps (a node visited in one feasibility test, or one node-slot of a per-node curve) the argument may
 * spend in one bound computation: ~10-20 ms. Bases go largest first and stop when it is spent; the windows
 * already tried still give a valid bound.
 */
const MIXED_WORK_BUDGET = 2_000_000;

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
 * tail >= q must all run inside [a, C - q): the smallest C that passes is a bound. Shapes that dominate
 * nothing are left out, which keeps it valid.
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
  const work = { left: MIXED_WORK_BUDGET };
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
      others.set(key, (d = { stages: [], packing: packingOf[g], order, factor }));
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
      const groups: { d: Dominating; tasks: number; caps: Int32Array[] | undefined }[] = [];
      for (const [key, d] of others) {
        let tasks = 0;
        for (const g of d.stages) if (inWindow(g, a, q)) tasks += model.stages[g].tasks;
        if (tasks === 0) continue;
        // Without its curves a group is uncapped: weaker, still valid.
        const capped = d.packing !== undefined && affordCurves(d.packing, key, a);
        groups.push({ d, tasks, caps: capped ? d.packing!.perNodeCurves(a) : undefined });
      }
      if (groups.length === 0) continue; // nothing mixed in this window
      const cost = searchSteps * K * (groups.length + 1);
      if (cost > work.left) return best;
      work.left -= cost;
      const fits = (b: number) => {
        let room = 0;
        for (let k = 0; k < K; k++) room += baseCurves[k][b];
        let need = nA;
        for (const { d, tasks, caps } of groups) {
          let left = tasks;
          for (const k of d.order) {
            if (left === 0) break;
            const y = caps ? Math.min(left, caps[k][b]) : left;
            need += y * d.factor[k];
            left -= y;
          }
          if (left > 0 || need > room) return false;
        }
        return need <= room;
      };
      if (!fits(T)) {
        best = T + 1;
        continue;
      }
      let lo = a + 1;
      let hi = T;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (fits(mid)) hi = mid;
        else lo = mid + 1;
      }
      best = Math.max(best, Math.min(T + 1, lo + q));
    }
  }
  return best;
}

/** At most n of the sorted values, evenly spread and always including the first (the weakest head/tail). */
function spread(sorted: number[], n: number): number[] {
  if (sorted.length <= n) return sorted;
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(sorted[Math.floor((i * (sorted.length - 1)) / (n - 1))]);
  return out;
}
