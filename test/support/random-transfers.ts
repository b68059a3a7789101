/**
 * Random instances that give what prices transfers (racks, `bandwidthMbps`, `network`, `blocks`, `outputMB`) and
 * random priced plans for them, for property tests of docs/FORMAT.md's "Transfers priced in plans".
 *
 *   withTransfers(inst, seed)      a copy of a random instance (random-instance.ts) with those fields
 *   leastFetchSlotsOf(...)         the least fetch time read straight from the JSON with the specification's words
 *   pricedPlan(inst, recipe)       a priced plan: some feasible, some not (fetch below the least, capacity, precedence)
 *
 * As in random-instance.ts, nothing here goes through the engine's Model: the tests compare the engine with an
 * independent reading (and with check-plan.py).
 */
import { AssignmentDoc, InstanceDoc, JobSpec, NodeSpec, PLAN_FORMAT, PlanDoc, StageSpec } from '../../src/engine/model/types';
import { Random } from '../../src/engine/random';
import { availableOf, durationOf, topologicalStages } from './random-instance';

/**
 * A copy of `inst` with racks, link rates, a `network`, input blocks and map outputs, each present or not at
 * random. Rates are chosen against the slot length so that fetches take from nothing to a few slots, some of
 * them exact multiples of the slot (the 1e-9 of the slot formula).
 */
export function withTransfers(inst: InstanceDoc, seed: number): InstanceDoc {
  const rng = new Random(seed);
  const out: InstanceDoc = JSON.parse(JSON.stringify(inst));
  const S = out.horizon.slotSeconds;
  // A rate at which 64 MB takes `slots` slots.
  const rate = (slots: number) => (64 * 8) / (S * slots);
  const anyRate = () => rate(rng.pick([0.5, 1, 1, 2, 3, 0.25 + 3 * rng.next()]));
  const racks = rng.pick([['r1'], ['r1', 'r2'], ['r1', 'r2', 'r3']]);
  const givesBandwidth = rng.next() < 0.7;
  for (const n of out.nodes) {
    if (rng.next() < 0.8) n.rack = rng.pick(racks);
    else delete n.rack;
    if (givesBandwidth && rng.next() < 0.8) n.bandwidthMbps = anyRate();
  }
  if (rng.next() < 0.7) {
    const inter = anyRate();
    out.network = { intraRackMbps: rng.next() < 0.3 ? inter : inter * rng.pick([2, 4, 10]), interRackMbps: inter };
  }
  for (const job of out.jobs)
    for (const s of job.stages) {
      if (rng.next() < 0.6 && !(s.after && s.after.length > 0 && rng.next() < 0.7)) {
        s.inputMB ??= rng.pick([64, 128, 32, 100.1]);
        s.blocks = Array.from({ length: s.tasks }, () => replicas(out.nodes, rng));
      }
      if (rng.next() < 0.6) s.outputMB = rng.pick([64, 32, 16, 10.3, 128 * rng.next()]);
    }
  return out;
}

/** 1 to 3 distinct node ids. */
function replicas(nodes: NodeSpec[], rng: Random): string[] {
  const ids = rng.shuffle(nodes.map((n) => n.id));
  return ids.slice(0, 1 + rng.int(Math.min(3, ids.length)));
}

/** transfer(mb, a, b) of the specification, seconds. */
function transferOf(inst: InstanceDoc, mb: number, a: NodeSpec, b: NodeSpec): number {
  if (a.id === b.id || !(mb > 0)) return 0;
  const rates = [a.bandwidthMbps, b.bandwidthMbps].filter((r): r is number => r !== undefined && r > 0);
  if (inst.network) rates.push(a.rack !== undefined && a.rack === b.rack ? inst.network.intraRackMbps : inst.network.interRackMbps);
  return rates.length > 0 ? (mb * 8) / Math.min(...rates) : 0;
}

/** Where a plan puts a task: node id, or undefined when it does not (yet) place it. */
export type Placed = (job: string, stage: string, task: number) => string | undefined;

/** The least fetch time in slots of task `task` of `stage` of `job` on node `nodeId`, its predecessors where `placed` says. */
export function leastFetchSlotsOf(inst: InstanceDoc, job: JobSpec, stage: StageSpec, task: number, nodeId: string, placed: Placed): number {
  const node = inst.nodes.find((n) => n.id === nodeId)!;
  let seconds = 0;
  if (stage.blocks && (stage.inputMB ?? 0) > 0 && !stage.blocks[task].includes(nodeId))
    seconds += Math.min(...stage.blocks[task].map((h) => transferOf(inst, stage.inputMB!, inst.nodes.find((n) => n.id === h)!, node)));
  for (const p of stage.after ?? []) {
    const ps = job.stages.find((s) => s.id === p)!;
    if (!((ps.outputMB ?? 0) > 0)) continue;
    for (let i = 0; i < ps.tasks; i++) {
      const from = placed(job.id, p, i);
      if (from !== undefined) seconds += transferOf(inst, ps.outputMB! / stage.tasks, inst.nodes.find((n) => n.id === from)!, node);
    }
  }
  return seconds > 0 ? Math.max(0, Math.ceil(seconds / inst.horizon.slotSeconds - 1e-9)) : 0;
}

export interface PricedRecipe {
  seed: number;
  /** Probability that a job is rejected. */
  rejectRate: number;
  /**
   * `first-fit`: the first start (from the predecessors' ends) where fetch and compute fit on some node;
   * `compute-only`: the same, but booking the compute alone (a plan that forgets its tasks hold the node while
   * they fetch); `random`: a small random delay, ignoring capacity.
   */
  packing: 'first-fit' | 'compute-only' | 'random';
  /** Probability that a task's fetchSlots is one below the least (when the least is above 0). */
  below: number;
  /** Probability that a task's fetchSlots is 1 or 2 above the least (padding for contention). */
  above: number;
  /** Probability that a stage starts after its predecessors' compute ends, forgetting their fetch. */
  forgetFetch: number;
  /** Probability that an assignment's fetchSlots is missing or malformed. */
  malformed: number;
  /** false: the plan does not say `"transfers": "priced"` (its fetchSlots are then ignored). */
  priced: boolean;
}

/**
 * A priced plan for `inst` from a recipe. Tasks are placed job by job in topological stage order, each on a
 * random node (on a replica holder half the time), or where it first fits (a job with a task that fits nowhere
 * is rejected), with fetchSlots from the least fetch time there. The
 * objective is what check-plan.py reads from the plan (a fetchSlots below the least, or malformed, counts as
 * the least), so it is truthful whatever else is wrong.
 */
export function pricedPlan(inst: InstanceDoc, recipe: PricedRecipe): PlanDoc {
  const rng = new Random(recipe.seed);
  const T = inst.horizon.slots;
  const load = new Map(inst.nodes.map((n) => [n.id, new Map(inst.metrics.map((m) => [m, new Float64Array(T)]))]));
  const count = new Map(inst.nodes.map((n) => [n.id, new Int32Array(T)]));
  const fits = (s: StageSpec, n: NodeSpec, from: number, to: number) => {
    if (to > T) return false;
    for (let t = from; t < to; t++) {
      if (n.maxTasks !== undefined && count.get(n.id)![t] >= n.maxTasks) return false;
      for (const m of inst.metrics) {
        const q = s.demand[m] ?? 0;
        if (q > 0 && load.get(n.id)!.get(m)![t] + q > availableOf(inst, n.id, m, t) + 1e-9) return false;
      }
    }
    return true;
  };
  /** Books (sign 1) or takes back (-1) a task's demand and task slot over [from, to). */
  const book = (s: StageSpec, n: NodeSpec, from: number, to: number, sign: 1 | -1) => {
    for (let t = Math.max(0, from); t < Math.min(T, to); t++) {
      count.get(n.id)![t] += sign;
      for (const m of inst.metrics) load.get(n.id)!.get(m)![t] += sign * (s.demand[m] ?? 0);
    }
  };
  const where = new Map<string, string>();
  const placed: Placed = (job, stage, task) => where.get(`${job}/${stage}/${task}`);
  const assignments: AssignmentDoc[] = [];
  const rejected: string[] = [];
  let scheduled = 0;
  let makespan = 0;
  for (const job of inst.jobs) {
    if (rng.next() < recipe.rejectRate) {
      rejected.push(job.id);
      continue;
    }
    // The job's tasks, booked as they are placed; a task that fits nowhere (first-fit) rejects the job, as a planner would.
    const mine: { a: AssignmentDoc; s: StageSpec; node: NodeSpec; from: number; to: number; end: number }[] = [];
    const ends = new Map<string, { priced: number; compute: number }>();
    let fitsNowhere = false;
    placing: for (const s of topologicalStages(job)) {
      let est = job.releaseSlot ?? 0;
      const forget = rng.next() < recipe.forgetFetch;
      for (const p of s.after ?? []) est = Math.max(est, forget ? ends.get(p)!.compute : ends.get(p)!.priced);
      let last = { priced: 0, compute: 0 };
      for (let i = 0; i < s.tasks; i++) {
        const chooseNode = () => {
          const holder = s.blocks && rng.next() < 0.5 ? rng.pick(s.blocks[i]) : undefined;
          return holder === undefined ? rng.pick(inst.nodes) : inst.nodes.find((n) => n.id === holder)!;
        };
        const fetchOn = (n: NodeSpec) => {
          const least = leastFetchSlotsOf(inst, job, s, i, n.id, placed);
          const r = rng.next();
          const given = r < recipe.below && least > 0 ? least - 1 : r < recipe.below + recipe.above ? least + 1 + rng.int(2) : least;
          return { least, given };
        };
        let node = chooseNode();
        let fetch = fetchOn(node);
        let start = est + rng.pick([0, 0, 0, 1, 2]);
        if (recipe.packing !== 'random') {
          let found = false;
          search: for (let t = est; t < T; t++)
            for (const n of rng.shuffle([...inst.nodes])) {
              const f = fetchOn(n);
              const d = durationOf(inst, s, n);
              if (fits(s, n, recipe.packing === 'compute-only' ? t + f.given : t, t + f.given + d)) {
                [node, fetch, start, found] = [n, f, t, true];
                break search;
              }
            }
          if (!found) {
            fitsNowhere = true;
            break placing;
          }
        }
        const d = durationOf(inst, s, node);
        const a: AssignmentDoc = { job: job.id, stage: s.id, task: i, node: node.id, start, fetchSlots: fetch.given };
        const malformed = rng.next() < recipe.malformed;
        if (malformed) {
          const bad = rng.pick([undefined, -1, 0.5, '2']);
          if (bad === undefined) delete a.fetchSlots;
          else (a as unknown as Record<string, unknown>).fetchSlots = bad;
        }
        // What check-plan.py counts: a fetch below the least, or malformed, counts as the least.
        const counted = malformed ? fetch.least : Math.max(fetch.given, fetch.least);
        const booked = { from: recipe.packing === 'compute-only' ? start + fetch.given : start, to: start + counted + d };
        book(s, node, booked.from, booked.to, 1);
        mine.push({ a, s, node, ...booked, end: start + (recipe.priced ? counted : 0) + d });
        where.set(`${job.id}/${s.id}/${i}`, node.id);
        last = { priced: Math.max(last.priced, start + counted + d), compute: Math.max(last.compute, start + d) };
      }
      ends.set(s.id, last);
    }
    if (fitsNowhere) {
      for (const m of mine) {
        book(m.s, m.node, m.from, m.to, -1);
        where.delete(`${job.id}/${m.a.stage}/${m.a.task}`);
      }
      rejected.push(job.id);
      continue;
    }
    for (const m of mine) {
      assignments.push(m.a);
      scheduled++;
      makespan = Math.max(makespan, m.end);
    }
  }
  return {
    format: PLAN_FORMAT,
    instance: inst.name,
    strategy: 'random-priced',
    ...(recipe.priced ? { transfers: 'priced' as const } : {}),
    assignments,
    rejected,
    objective: { scheduledTasks: scheduled, makespanSlots: makespan },
  };
}
