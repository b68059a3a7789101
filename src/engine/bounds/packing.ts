import { Model } from '../model/model';
import { earliestEnd } from './earliest-end';
import { mixedPackingBound } from './mixed-packing';
import { NodePacking } from './node-packing';

export interface PackingBound {
  /** Per stage: its tasks packed on the nodes from its head, then the longest chain of packed successors. */
  jobPacking: number;
  /** Per task shape, across jobs: the tasks whose heads and tails allow a window must be packed into it. */
  classPacking: number;
  /** Tasks of shapes that dominate a base shape counted as base tasks in the same windows (mixed-packing.ts). */
  mixedPacking: number;
}

/**
 * Node-slot cells (K x T per task shape) spent on packing profiles: each is built in O(M) and held as
 * three Int32 arrays, so this caps the work near ~10 ms and the memory near 12 MB on the papers' clusters.
 * At a data centre's size (1,000+ nodes, issue 40) one profile alone is over that, so the budget grows to
 * the two largest shapes whatever the size (~12 bytes a cell: 58 MB at 5,000 nodes x 480 slots). Shapes are
 * taken by task count, largest first; the rest fall back to the critical path, which keeps the bound valid.
 */
const PROFILE_CELL_BUDGET = 1_000_000;
const PROFILE_SHAPES_AT_SCALE = 2;
/** Distinct heads and tails tried per shape in the pooled argument (any subset is valid, fewer is weaker). */
const MAX_HEADS = 24;
const MAX_TAILS = 12;
/**
 * Slot-steps (per node, slots x duration) the exact packing curves may spend before falling back: 4M, or
 * 40 per node-slot cell on a large cluster (~20M at 1,000 nodes x 480 slots, some 100 ms).
 */
const EXACT_WORK_BUDGET = 4_000_000;
const EXACT_WORK_PER_CELL = 40;

/**
 * Packing bounds with heads and tails. A stage's head is the earliest slot any of its tasks can start
 * (release, and every predecessor packed and finished); its tail the shortest time its successors need
 * after its last task ends (each successor packed on the nodes as fast as they ever allow, in chain).
 * A stage of N tasks cannot end before its N tasks fit on the nodes from its head (NodePacking counts,
 * per node, tasks that fit one node with that node's duration: no task is split across nodes), and the
 * makespan is at least that end plus the tail. Stages of the same shape in different jobs compete for
 * the same nodes: the tasks of those with head >= a and tail >= q must all fit in [a, C - q).
 * `eft` holds the critical path's earliest ends alone (earliestFinishAlone) for the accepted jobs: reused
 * where the head is no later than the critical path's start.
 */
export function packingBound(model: Model, isIn: (j: number) => boolean, eft: Int32Array): PackingBound {
  const { T } = model;
  const shapes = groupByShape(model, isIn);
  const head = new Int32Array(model.stages.length);
  const end = new Int32Array(model.stages.length);
  const tail = new Int32Array(model.stages.length);
  let jobPacking = 0;
  model.jobs.forEach((job, j) => {
    if (!isIn(j)) return;
    for (const g of job.stages) {
      const s = model.stages[g];
      let est = job.release;
      let plainEst = job.release;
      for (const p of s.preds) (est = Math.max(est, end[p])), (plainEst = Math.max(plainEst, eft[p]));
      head[g] = est;
      const packing = shapes.packingOf[g];
      const alone = est === plainEst ? eft[g] : earliestEnd(model, s, est);
      end[g] = Math.max(alone, packing ? packing.completion(est, s.tasks) : 0);
    }
    for (let i = job.stages.length - 1; i >= 0; i--) {
      const g = job.stages[i];
      let q = 0;
      for (const x of model.stages[g].succs) {
        const sx = model.stages[x];
        const packing = shapes.packingOf[x];
        const span = Math.max(sx.minDur, packing ? packing.shortestSpan(sx.tasks) : 0);
        q = Math.max(q, Math.min(T + 1, span + tail[x]));
      }
      tail[g] = q;
      jobPacking = Math.max(jobPacking, Math.min(T + 1, end[g] + q));
    }
  });
  let classPacking = 0;
  for (const members of shapes.members) {
    const packing = shapes.packingOf[members[0]]!;
    const heads = spread([...new Set(members.map((g) => head[g]))].sort((a, b) => a - b), MAX_HEADS);
    const tails = spread([...new Set(members.map((g) => tail[g]))].sort((a, b) => a - b), MAX_TAILS);
    for (const a of heads) {
      for (const q of tails) {
        let tasks = 0;
        for (const g of members) if (head[g] >= a && tail[g] >= q) tasks += model.stages[g].tasks;
        if (tasks === 0) continue;
        classPacking = Math.max(classPacking, Math.min(T + 1, packing.completion(a, tasks) + q));
      }
    }
  }
  const bases = shapes.members.map((m) => shapes.packingOf[m[0]]!);
  const mixedPacking = mixedPackingBound(model, isIn, head, tail, shapes.packingOf, bases);
  return { jobPacking, classPacking, mixedPacking };
}

interface Shapes {
  /** The packing profile of each stage's shape; undefined when the shape got none (budget, or one task). */
  packingOf: (NodePacking | undefined)[];
  /** The accepted stages of each shape that has a profile. */
  members: number[][];
}

/** Groups the accepted stages by task shape and builds profiles for the largest shapes within budget. */
function groupByShape(model: Model, isIn: (j: number) => boolean): Shapes {
  const byKey = new Map<string, { stages: number[]; tasks: number }>();
  let acceptedTasks = 0;
  model.stages.forEach((s, g) => {
    if (!isIn(s.job)) return;
    acceptedTasks += s.tasks;
    const key = `${s.demand.join(',')}|${s.dur.join(',')}`;
    let e = byKey.get(key);
    if (!e) byKey.set(key, (e = { stages: [], tasks: 0 }));
    e.stages.push(g);
    e.tasks += s.tasks;
  });
  const packingOf: (NodePacking | undefined)[] = new Array(model.stages.length);
  const members: number[][] = [];
  // NodePacking sums per-slot concurrencies in Int32 and so caps them near 2^30 / (T + 1). Where that cap
  // could be below the tasks there are (a huge horizon and many tasks), a capped profile could undercount
  // what the nodes hold and lift the bound above a feasible makespan: no profiles then (the packing
  // arguments give 0, the others still hold).
  if (acceptedTasks > Math.floor(0x3fffffff / (model.T + 1))) return { packingOf, members };
  const cells = model.K * model.T;
  let budget = Math.max(PROFILE_CELL_BUDGET, PROFILE_SHAPES_AT_SCALE * cells);
  const work = { left: Math.max(EXACT_WORK_BUDGET, EXACT_WORK_PER_CELL * cells) };
  // One task alone is the critical path's business; ties broken by first stage for determinism.
  const worth = [...byKey.values()].filter((e) => e.tasks >= 2).sort((x, y) => y.tasks - x.tasks || x.stages[0] - y.stages[0]);
  for (const e of worth) {
    if (cells > budget) break;
    budget -= cells;
    const s = model.stages[e.stages[0]];
    // Capped at every accepted task, not the shape's: mixedPackingBound converts other tasks into this shape.
    const packing = new NodePacking(model, s.demand, s.dur, acceptedTasks, work);
    for (const g of e.stages) packingOf[g] = packing;
    members.push(e.stages);
  }
  return { packingOf, members };
}

/** At most n of the sorted values, evenly spread and always including the first (the weakest head/tail). */
function spread(sorted: number[], n: number): number[] {
  if (sorted.length <= n) return sorted;
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(sorted[Math.floor((i * (sorted.length - 1)) / (n - 1))]);
  return out;
}
