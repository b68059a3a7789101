/**
 * Random valid `fallow.instance/v1` instances and random plans for them, for property tests.
 *
 *   instanceArb()            fast-check arbitrary of instances (shrinks)
 *   randomInstance(seed)     the same generator driven by a plain seed (reproducible, no fast-check runner)
 *   planRecipeArb()          how to build a plan: a base (plausible or rffd) and an optional deliberate break
 *   materializePlan(...)     turns a recipe into a plan for an instance (async: rffd bases come from solve())
 *   instanceWithPlanArb()    both at once
 *
 * Everything here computes durations, availability and objectives straight from the JSON with the formulas
 * of FORMAT.md, not through the engine's Model, so the tests compare the engine with an independent reading.
 */
import * as fc from 'fast-check';
import { loadInstance, Model } from '../../src/engine/model/model';
import { AssignmentDoc, INSTANCE_FORMAT, InstanceDoc, JobSpec, NodeSpec, PLAN_FORMAT, PlanDoc, StageSpec } from '../../src/engine/model/types';
import { Random } from '../../src/engine/random';
import { solve } from '../../src/engine/solve';

export const METRIC_NAMES = ['cpu', 'ram', 'disk', 'gpu'];
const STAGE_NAMES = ['map', 'shuffle', 'reduce', 'merge'];

export interface InstanceArbOptions {
  minSlots?: number;
  maxSlots?: number;
  maxMetrics?: number;
  maxNodes?: number;
  maxJobs?: number;
  maxStages?: number;
  maxTasks?: number;
}

const DEFAULTS: Required<InstanceArbOptions> = {
  minSlots: 5,
  maxSlots: 40,
  maxMetrics: 4,
  maxNodes: 5,
  maxJobs: 5,
  maxStages: 4,
  maxTasks: 4,
};

/** -0 never survives JSON; normalise it so JSON round trips are exact. */
const noNegZero = (v: number) => (Object.is(v, -0) ? 0 : v);

/** An amount in [0, max]: mostly integers, some arbitrary doubles, some decimals that binary cannot hold exactly. */
function amountArb(max: number): fc.Arbitrary<number> {
  return fc
    .oneof(
      { weight: 4, arbitrary: fc.integer({ min: 0, max }) },
      { weight: 2, arbitrary: fc.double({ min: 0, max, noNaN: true, noDefaultInfinity: true }) },
      { weight: 1, arbitrary: fc.constantFrom(0.1, 0.2, 0.3, 0.7, 1.1, 2.3) },
    )
    .map(noNegZero);
}

/** A fraction in [0, 1]: usage forecasts and safety margins. */
function fractionArb(max = 1): fc.Arbitrary<number> {
  return fc
    .oneof(
      { weight: 3, arbitrary: fc.double({ min: 0, max, noNaN: true, noDefaultInfinity: true }) },
      { weight: 2, arbitrary: fc.constantFrom(0, 0.1, 0.25, 0.5, 0.7, 0.9, 1).filter((v) => v <= max) },
    )
    .map(noNegZero);
}

function optional<T>(arb: fc.Arbitrary<T>, freq = 2): fc.Arbitrary<T | undefined> {
  return fc.option(arb, { nil: undefined, freq });
}

/** Drops the keys whose value is undefined, so the JSON looks like a hand-written one. */
function clean<T extends object>(o: T): T {
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] === undefined) delete o[k];
  return o;
}

function nodeArb(metrics: string[], T: number) {
  return fc.record({
    capacity: fc.tuple(...metrics.map(() => optional(amountArb(16), 8))),
    speed: optional(
      fc.oneof(fc.constantFrom(0.5, 1, 1.5, 2, 3), fc.double({ min: 0.25, max: 4, noNaN: true, noDefaultInfinity: true })),
    ),
    maxTasks: optional(fc.oneof({ weight: 1, arbitrary: fc.constant(0) }, { weight: 6, arbitrary: fc.integer({ min: 1, max: 4 }) })),
    rack: optional(fc.constantFrom('r1', 'r2')),
    costPerHour: optional(fc.constantFrom(0.1, 0.4)),
    usage: optional(fc.tuple(...metrics.map(() => optional(fc.array(fractionArb(), { minLength: T, maxLength: T }))))),
  });
}

function stageArb(metrics: string[], slotSeconds: number, earlier: string[], maxTasks: number) {
  const seconds = fc.oneof(
    // exact multiples of the slot (tests the 1e-9 in the duration formula) ...
    { weight: 2, arbitrary: fc.integer({ min: 1, max: 6 }).map((n) => n * slotSeconds) },
    // ... anything from a blip to six slots
    { weight: 3, arbitrary: fc.double({ min: 0.001, max: 6 * slotSeconds, noNaN: true, noDefaultInfinity: true }) },
  );
  return fc.record({
    tasks: fc.integer({ min: 1, max: maxTasks }),
    after: fc.subarray(earlier),
    demand: fc.tuple(...metrics.map(() => optional(amountArb(8), 5))),
    isWork: fc.boolean(),
    seconds,
    inputMB: optional(fc.constantFrom(64, 128)),
  });
}

function jobArb(metrics: string[], T: number, slotSeconds: number, o: Required<InstanceArbOptions>) {
  return fc.integer({ min: 1, max: o.maxStages }).chain((S) => {
    const ids = fc.shuffledSubarray(STAGE_NAMES.concat(['s4', 's5', 's6']), { minLength: S, maxLength: S });
    return ids.chain((names) =>
      fc.record({
        names: fc.constant(names),
        stages: fc.tuple(...names.map((_, si) => stageArb(metrics, slotSeconds, names.slice(0, si), o.maxTasks))),
        // Listing order need not be topological: "after" may point forward in the array.
        listing: fc.constantFrom('topological', 'reversed', 'topological'),
        releaseSlot: optional(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: Math.floor(T / 2) }), fc.integer({ min: 0, max: T - 1 }))),
        deadlineSlot: optional(fc.integer({ min: 0, max: T + 5 })),
        revenue: optional(
          fc.record({ onTime: fc.integer({ min: 0, max: 20 }), late: fc.integer({ min: -10, max: 5 }) }, { requiredKeys: [] }),
        ),
        replication: optional(fc.integer({ min: 1, max: 4 })),
        class: optional(fc.constantFrom('batch' as const, 'deadline' as const)),
        customer: optional(fc.constantFrom('acme', 'globex')),
      }),
    );
  });
}

/** Random valid instances: 1-4 metrics, 1-5 nodes, 1-5 jobs of 1-4 stages in a DAG, 1-4 tasks a stage, 5-40 slots. */
export function instanceArb(options: InstanceArbOptions = {}): fc.Arbitrary<InstanceDoc> {
  const o = { ...DEFAULTS, ...options };
  return fc
    .record({
      T: fc.integer({ min: o.minSlots, max: o.maxSlots }),
      M: fc.integer({ min: 1, max: o.maxMetrics }),
      slotSeconds: fc.oneof(fc.constantFrom(60, 180, 300), fc.double({ min: 0.5, max: 600, noNaN: true, noDefaultInfinity: true })),
    })
    .chain(({ T, M, slotSeconds }) => {
      const metrics = METRIC_NAMES.slice(0, M);
      return fc
        .record({
          nodes: fc.array(nodeArb(metrics, T), { minLength: 1, maxLength: o.maxNodes }),
          jobs: fc.array(jobArb(metrics, T, slotSeconds, o), { minLength: 1, maxLength: o.maxJobs }),
          safetyMargin: optional(fc.tuple(...metrics.map(() => optional(fractionArb(0.5))))),
          reference: optional(fc.constantFrom<unknown>({ optimum: 42 }, 'anything', [1, 2, 3])),
          provenance: optional(fc.constant({ generator: 'random-instance.ts' })),
        })
        .map((r) => buildInstance(T, slotSeconds, metrics, r));
    });
}

function buildInstance(T: number, slotSeconds: number, metrics: string[], r: any): InstanceDoc {
  const perMetric = <V>(vals: (V | undefined)[]): Record<string, V> => {
    const out: Record<string, V> = {};
    vals.forEach((v, i) => {
      if (v !== undefined) out[metrics[i]] = v;
    });
    return out;
  };
  const nodes: NodeSpec[] = r.nodes.map((n: any, k: number) =>
    clean({
      id: `n${k}`,
      rack: n.rack,
      capacity: perMetric<number>(n.capacity),
      speed: n.speed,
      maxTasks: n.maxTasks,
      costPerHour: n.costPerHour,
    }),
  );
  const usage: Record<string, Record<string, number[]>> = {};
  r.nodes.forEach((n: any, k: number) => {
    if (n.usage) {
      const u = perMetric<number[]>(n.usage);
      if (Object.keys(u).length > 0) usage[`n${k}`] = u;
    }
  });
  const jobs: JobSpec[] = r.jobs.map((j: any, ji: number) => {
    let stages: StageSpec[] = j.stages.map((s: any, si: number) =>
      clean({
        id: j.names[si],
        tasks: s.tasks,
        after: s.after.length > 0 ? s.after : undefined,
        demand: perMetric<number>(s.demand),
        work: s.isWork ? s.seconds * (nodes[0].speed ?? 1) : undefined,
        durationSeconds: s.isWork ? undefined : s.seconds,
        inputMB: s.inputMB,
      }),
    );
    if (j.listing === 'reversed') stages = stages.reverse();
    return clean({
      id: `j${ji}`,
      customer: j.customer,
      class: j.class,
      releaseSlot: j.releaseSlot,
      deadlineSlot: j.deadlineSlot,
      revenue: j.revenue,
      replication: j.replication,
      stages,
    });
  });
  const safetyMargin = r.safetyMargin ? perMetric<number>(r.safetyMargin) : undefined;
  return clean({
    format: INSTANCE_FORMAT,
    name: 'random',
    horizon: { slots: T, slotSeconds },
    metrics,
    safetyMargin,
    nodes,
    usage: Object.keys(usage).length > 0 ? usage : undefined,
    jobs,
    reference: r.reference,
    provenance: r.provenance,
  }) as InstanceDoc;
}

/** The instance generator driven by a plain seed: the same seed gives the same instance. */
export function randomInstance(seed: number, options: InstanceArbOptions = {}): InstanceDoc {
  return fc.sample(instanceArb(options), { seed, numRuns: 1 })[0];
}

// ---------------------------------------------------------------------------------------------------
// Derived quantities straight from FORMAT.md (independent of the engine's Model).

export function durationOf(inst: InstanceDoc, stage: StageSpec, node: NodeSpec): number {
  const secs = stage.work !== undefined && stage.work !== null ? stage.work / (node.speed ?? 1) : stage.durationSeconds!;
  return Math.max(1, Math.ceil(secs / inst.horizon.slotSeconds - 1e-9));
}

export function availableOf(inst: InstanceDoc, nodeId: string, metric: string, t: number): number {
  const node = inst.nodes.find((n) => n.id === nodeId)!;
  const c = node.capacity[metric] ?? 0;
  const u = inst.usage?.[nodeId]?.[metric]?.[t] ?? 0;
  const s = inst.safetyMargin?.[metric] ?? 0;
  return c * Math.max(0, 1 - u - s);
}

/** The check-plan.py / evaluator tolerance: demand may exceed available by 1e-6 relative + 1e-9. */
export function overCapacity(load: number, avail: number): boolean {
  return load > avail + 1e-6 * Math.max(1, avail) + 1e-9;
}

function stageOf(inst: InstanceDoc, job: string, stage: string): StageSpec | undefined {
  return inst.jobs.find((j) => j.id === job)?.stages.find((s) => s.id === stage);
}

function nodeOf(inst: InstanceDoc, id: string): NodeSpec | undefined {
  return inst.nodes.find((n) => n.id === id);
}

/** Stage ids of a job in a topological order of its stage graph. */
export function topologicalStages(job: JobSpec): StageSpec[] {
  const done = new Set<string>();
  const out: StageSpec[] = [];
  while (out.length < job.stages.length) {
    const before = out.length;
    for (const s of job.stages)
      if (!done.has(s.id) && (s.after ?? []).every((a) => done.has(a))) {
        done.add(s.id);
        out.push(s);
      }
    if (out.length === before) throw new Error(`job ${job.id}: cyclic stage graph`);
  }
  return out;
}

export function endOf(inst: InstanceDoc, a: AssignmentDoc): number {
  return a.start + durationOf(inst, stageOf(inst, a.job, a.stage)!, nodeOf(inst, a.node)!);
}

/**
 * The assignments that count, read as FORMAT.md and check-plan.py read a plan: per task the last assignment
 * of it wins; a job counts when it is not rejected and every one of its tasks is assigned; of those, the
 * tasks on nodes the instance has.
 */
export function countedAssignments(inst: InstanceDoc, plan: PlanDoc): AssignmentDoc[] {
  const rejected = new Set(plan.rejected);
  const byKey = new Map<string, AssignmentDoc>();
  for (const a of plan.assignments) byKey.set(`${a.job}\u0000${a.stage}\u0000${a.task}`, a);
  const out: AssignmentDoc[] = [];
  for (const job of inst.jobs) {
    if (rejected.has(job.id)) continue;
    const mine = job.stages.flatMap((s) => Array.from({ length: s.tasks }, (_, i) => byKey.get(`${job.id}\u0000${s.id}\u0000${i}`)));
    if (mine.some((a) => a === undefined)) continue;
    for (const a of mine) if (nodeOf(inst, a!.node)) out.push(a!);
  }
  return out;
}

/** The objective a plan must report: the counted tasks and their latest end (0 when there are none). */
export function objectiveOf(inst: InstanceDoc, plan: PlanDoc): { scheduledTasks: number; makespanSlots: number } {
  const counted = countedAssignments(inst, plan);
  return { scheduledTasks: counted.length, makespanSlots: counted.reduce((m, a) => Math.max(m, endOf(inst, a)), 0) };
}

/** Demand of metric m on node k at slot t, and the number of tasks running there. */
export function loadAt(inst: InstanceDoc, plan: PlanDoc, nodeId: string, metric: string, t: number): { demand: number; count: number } {
  let demand = 0;
  let count = 0;
  for (const a of countedAssignments(inst, plan)) {
    if (a.node !== nodeId) continue;
    if (a.start <= t && t < endOf(inst, a)) {
      demand += stageOf(inst, a.job, a.stage)!.demand[metric] ?? 0;
      count++;
    }
  }
  return { demand, count };
}

// ---------------------------------------------------------------------------------------------------
// Plans

export const BROKEN_KINDS = [
  'drop-task',
  'duplicate-task',
  'before-release',
  'leave-window',
  'violate-precedence',
  'overload-capacity',
  'exceed-maxTasks',
  'lie-scheduledTasks',
  'lie-makespan',
  'unknown-node',
  'reject-and-assign',
  'reject-unknown-job',
  'extra-task',
  'unknown-stage',
] as const;
export type BrokenKind = (typeof BROKEN_KINDS)[number];

/** What the evaluator must say about each deliberate break (one of its violations matches). */
export const EXPECTED_MESSAGE: Record<BrokenKind, RegExp> = {
  'drop-task': /^job "[^"]+" is neither rejected nor complete: \d+\/\d+ tasks assigned$/,
  'duplicate-task': /^assignments\[\d+\]: task [^ ]+ is assigned twice$/,
  'before-release': /starts at -?\d+ before the job's release \d+$/,
  'leave-window': /runs \[-?\d+, -?\d+\) outside the window \[0, \d+\)$/,
  'violate-precedence': /^job "[^"]+": stage "[^"]+" starts at -?\d+ before stage "[^"]+" ends at \d+$/,
  'overload-capacity': /^node "[^"]+" metric "[^"]+" slot \d+: demand [-\d.e+]+ > available [-\d.e+]+$/,
  'exceed-maxTasks': /^node "[^"]+" slot \d+: \d+ tasks > maxTasks \d+$/,
  'lie-scheduledTasks': /^objective\.scheduledTasks=-?\d+ but the assignments give \d+$/,
  'lie-makespan': /^objective\.makespanSlots=-?\d+ but the assignments give \d+$/,
  'unknown-node': /^assignments\[\d+\]\.node: unknown node "no-such-node"$/,
  'reject-and-assign': /^assignments\[\d+\]: job "[^"]+" is both rejected and assigned$/,
  'reject-unknown-job': /^rejected\[\d+\]: job "no-such-job" is not in the instance$/,
  'extra-task': /^assignments\[\d+\]\.task: must be an integer in \[0, \d+\], got \d+$/,
  'unknown-stage': /^assignments\[\d+\]\.stage: job "[^"]+" has no stage "no-such-stage"$/,
};

export interface PlanRecipe {
  base: 'plausible' | 'rffd';
  seed: number;
  /** Probability that a plausible plan rejects a job. */
  rejectRate: number;
  /** Probability that a plausible plan's task ignores precedence and starts anywhere. */
  chaos: number;
  /** Plausible plans: random start after the predecessors, or the first start where the task fits (mostly feasible). */
  packing: 'random' | 'first-fit';
  shuffleAssignments: boolean;
  broken: BrokenKind | null;
}

export function planRecipeArb(): fc.Arbitrary<PlanRecipe> {
  return fc.record({
    base: fc.oneof({ weight: 3, arbitrary: fc.constant('plausible' as const) }, { weight: 2, arbitrary: fc.constant('rffd' as const) }),
    seed: fc.integer({ min: 1, max: 0x7fffffff }),
    rejectRate: fc.constantFrom(0, 0, 0.2, 0.5),
    chaos: fc.constantFrom(0, 0, 0.05, 0.3),
    packing: fc.constantFrom('random' as const, 'first-fit' as const),
    shuffleAssignments: fc.boolean(),
    broken: fc.oneof(
      { weight: BROKEN_KINDS.length, arbitrary: fc.constant(null) },
      { weight: BROKEN_KINDS.length, arbitrary: fc.constantFrom(...BROKEN_KINDS) },
    ),
  });
}

export interface PlanCase {
  plan: PlanDoc;
  recipe: PlanRecipe;
  /** The break actually made (null when the recipe asked for none or it could not be made on this plan). */
  broken: BrokenKind | null;
}

/** A plan for `inst` from a recipe: a plausible random plan or rffd's, then the requested break if possible. */
export async function materializePlan(inst: InstanceDoc, recipe: PlanRecipe, model: Model = loadInstance(inst)): Promise<PlanCase> {
  const plan =
    recipe.base === 'rffd'
      ? await solve(model, { strategy: 'rffd', maxIterations: 1, seed: recipe.seed, timeBudgetMs: 60_000 })
      : plausiblePlan(inst, recipe);
  if (!recipe.broken) return { plan, recipe, broken: null };
  const broken = breakPlan(inst, plan, recipe.broken, new Random(recipe.seed ^ 0x5bd1e995));
  return broken ? { plan: broken, recipe, broken: recipe.broken } : { plan, recipe, broken: null };
}

/**
 * A synchronous arbitrary of plans for one instance: plausible plans, some with a deliberate break. (Plans
 * from rffd need solve(), which is async: use planRecipeArb() with materializePlan() for those.)
 */
export function planArb(inst: InstanceDoc): fc.Arbitrary<PlanCase> {
  return planRecipeArb().map((r) => {
    const recipe = { ...r, base: 'plausible' as const };
    const plan = plausiblePlan(inst, recipe);
    const broken = recipe.broken ? breakPlan(inst, plan, recipe.broken, new Random(recipe.seed ^ 0x5bd1e995)) : null;
    return broken ? { plan: broken, recipe, broken: recipe.broken } : { plan, recipe, broken: null };
  });
}

/** Both at once: a random instance and a recipe for a plan on it. */
export function instanceWithPlanArb(options: InstanceArbOptions = {}): fc.Arbitrary<{ instance: InstanceDoc; recipe: PlanRecipe }> {
  return fc.record({ instance: instanceArb(options), recipe: planRecipeArb() });
}

/**
 * Every task of every non-rejected job on a random node, starting when its predecessors have ended: after a
 * small random delay ignoring capacity (`random`), or at the first slot from there where it fits on some
 * node, tried in random order (`first-fit`, falling back to a random start when it fits nowhere). A `chaos`
 * share of tasks start anywhere. So some plans are feasible and some not; the objective is reported truthfully.
 */
export function plausiblePlan(
  inst: InstanceDoc,
  recipe: Pick<PlanRecipe, 'seed' | 'rejectRate' | 'chaos' | 'shuffleAssignments' | 'packing'>,
): PlanDoc {
  const rng = new Random(recipe.seed);
  const T = inst.horizon.slots;
  // first-fit bookkeeping: load[node][metric][t] and running task counts, straight from FORMAT.md
  const load = new Map(inst.nodes.map((n) => [n.id, new Map(inst.metrics.map((m) => [m, new Float64Array(T)]))]));
  const count = new Map(inst.nodes.map((n) => [n.id, new Int32Array(T)]));
  const fitsAt = (s: StageSpec, n: NodeSpec, start: number) => {
    const d = durationOf(inst, s, n);
    if (start + d > T) return false;
    for (let t = start; t < start + d; t++) {
      if (n.maxTasks !== undefined && count.get(n.id)![t] >= n.maxTasks) return false;
      for (const m of inst.metrics) {
        const q = s.demand[m] ?? 0;
        if (q > 0 && load.get(n.id)!.get(m)![t] + q > availableOf(inst, n.id, m, t) + 1e-9) return false;
      }
    }
    return true;
  };
  const firstFit = (s: StageSpec, est: number): { node: NodeSpec; start: number } | null => {
    for (let t = est; t < T; t++) for (const n of rng.shuffle([...inst.nodes])) if (fitsAt(s, n, t)) return { node: n, start: t };
    return null;
  };
  const book = (s: StageSpec, n: NodeSpec, start: number) => {
    const end = Math.min(T, start + durationOf(inst, s, n));
    for (let t = Math.max(0, start); t < end; t++) {
      count.get(n.id)![t]++;
      for (const m of inst.metrics) load.get(n.id)!.get(m)![t] += s.demand[m] ?? 0;
    }
  };
  const assignments: AssignmentDoc[] = [];
  const rejected: string[] = [];
  for (const job of inst.jobs) {
    if (rng.next() < recipe.rejectRate) {
      rejected.push(job.id);
      continue;
    }
    const stageEnd = new Map<string, number>();
    for (const s of topologicalStages(job)) {
      let est = job.releaseSlot ?? 0;
      for (const p of s.after ?? []) est = Math.max(est, stageEnd.get(p)!);
      let last = 0;
      for (let i = 0; i < s.tasks; i++) {
        let node = rng.pick(inst.nodes);
        let start = rng.next() < recipe.chaos ? rng.int(T) : est + rng.pick([0, 0, 0, 1, 2]);
        const fit = recipe.packing === 'first-fit' ? firstFit(s, est) : null;
        if (fit) ({ node, start } = fit);
        book(s, node, start);
        assignments.push({ job: job.id, stage: s.id, task: i, node: node.id, start });
        last = Math.max(last, start + durationOf(inst, s, node));
      }
      stageEnd.set(s.id, last);
    }
  }
  if (recipe.shuffleAssignments) rng.shuffle(assignments);
  const plan: PlanDoc = {
    format: PLAN_FORMAT,
    instance: inst.name,
    strategy: 'random',
    assignments,
    rejected,
    objective: { scheduledTasks: 0, makespanSlots: 0 },
  };
  plan.objective = objectiveOf(inst, plan);
  return plan;
}

/**
 * A copy of `plan` with one deliberate break of the given kind, or null when this plan offers no way to make
 * it (no accepted job, no stage edge, no node with maxTasks, ...). The objective is recomputed afterwards
 * (as check-plan.py reads the plan) except where the break is about the objective.
 */
export function breakPlan(inst: InstanceDoc, original: PlanDoc, kind: BrokenKind, rng: Random): PlanDoc | null {
  const plan: PlanDoc = JSON.parse(JSON.stringify(original));
  const T = inst.horizon.slots;
  const rejected = new Set(plan.rejected);
  const acceptedJobs = inst.jobs.filter((j) => !rejected.has(j.id) && plan.assignments.some((a) => a.job === j.id));
  const accepted = plan.assignments.filter((a) => acceptedJobs.some((j) => j.id === a.job));
  const recompute = () => {
    plan.objective = objectiveOf(inst, plan);
    return plan;
  };
  switch (kind) {
    case 'drop-task': {
      if (accepted.length === 0) return null;
      plan.assignments.splice(plan.assignments.indexOf(rng.pick(accepted)), 1);
      return recompute();
    }
    case 'duplicate-task': {
      if (plan.assignments.length === 0) return null;
      const a = rng.pick(plan.assignments);
      // An exact copy, or one with another start (the later one counts, in both checkers).
      const copy = rng.next() < 0.5 ? { ...a } : { ...a, start: rng.int(T) };
      plan.assignments.splice(rng.int(plan.assignments.length + 1), 0, copy);
      return recompute();
    }
    case 'before-release': {
      const late = accepted.filter((a) => (inst.jobs.find((j) => j.id === a.job)!.releaseSlot ?? 0) > 0);
      if (late.length === 0) return null;
      const a = rng.pick(late);
      a.start = rng.int(inst.jobs.find((j) => j.id === a.job)!.releaseSlot!);
      return recompute();
    }
    case 'leave-window': {
      if (accepted.length === 0) return null;
      const a = rng.pick(accepted);
      const d = endOf(inst, a) - a.start;
      a.start = rng.next() < 0.25 ? -1 - rng.int(2) : T - d + 1 + rng.int(3);
      return recompute();
    }
    case 'violate-precedence': {
      const edges: [AssignmentDoc, AssignmentDoc][] = [];
      for (const b of accepted) {
        const s = stageOf(inst, b.job, b.stage)!;
        for (const p of s.after ?? []) for (const a of accepted) if (a.job === b.job && a.stage === p) edges.push([a, b]);
      }
      if (edges.length === 0) return null;
      const [a, b] = rng.pick(edges);
      b.start = a.start; // starts before `a` ends, since every duration is at least 1
      return recompute();
    }
    case 'overload-capacity': {
      // Stack tasks that need metric m on (node, slot) until the demand there exceeds what is available.
      const combos: { node: string; metric: string; t: number; avail: number }[] = [];
      for (const n of inst.nodes)
        for (const m of inst.metrics) for (let t = 0; t < T; t++) combos.push({ node: n.id, metric: m, t, avail: availableOf(inst, n.id, m, t) });
      rng.shuffle(combos);
      combos.sort((x, y) => x.avail - y.avail);
      for (const c of combos.slice(0, 20)) {
        const movable = accepted
          .filter((a) => (stageOf(inst, a.job, a.stage)!.demand[c.metric] ?? 0) > 0)
          .sort((x, y) => stageOf(inst, y.job, y.stage)!.demand[c.metric]! - stageOf(inst, x.job, x.stage)!.demand[c.metric]!);
        const trial: PlanDoc = JSON.parse(JSON.stringify(plan));
        const moved = new Set<number>();
        for (const a of movable) {
          const idx = plan.assignments.indexOf(a);
          trial.assignments[idx].node = c.node;
          trial.assignments[idx].start = c.t;
          moved.add(idx);
          // Keep a safety margin over the tolerance so float summation order cannot matter.
          const { demand } = loadAt(inst, trial, c.node, c.metric, c.t);
          if (overCapacity(demand, c.avail) && demand > c.avail * (1 + 1e-5) + 1e-6) {
            trial.objective = objectiveOf(inst, trial);
            return trial;
          }
        }
      }
      return null;
    }
    case 'exceed-maxTasks': {
      const limited = inst.nodes.filter((n) => n.maxTasks !== undefined && accepted.length > n.maxTasks);
      if (limited.length === 0) return null;
      const node = rng.pick(limited);
      const t = rng.int(T);
      for (const a of rng.shuffle([...accepted])) {
        a.node = node.id;
        a.start = t;
        if (loadAt(inst, plan, node.id, inst.metrics[0], t).count > node.maxTasks!) return recompute();
      }
      return null;
    }
    case 'lie-scheduledTasks':
      plan.objective.scheduledTasks += rng.pick([-1, 1, 2]);
      return plan;
    case 'lie-makespan':
      plan.objective.makespanSlots += rng.pick([-1, 1, 3]);
      return plan;
    case 'unknown-node': {
      if (plan.assignments.length === 0) return null;
      rng.pick(plan.assignments).node = 'no-such-node';
      return recompute();
    }
    case 'reject-and-assign': {
      if (acceptedJobs.length === 0) return null;
      plan.rejected.push(rng.pick(acceptedJobs).id);
      return recompute();
    }
    case 'reject-unknown-job':
      plan.rejected.push('no-such-job');
      return plan;
    case 'extra-task': {
      if (acceptedJobs.length === 0) return null;
      const job = rng.pick(acceptedJobs);
      const s = rng.pick(job.stages);
      const a = plan.assignments.find((x) => x.job === job.id)!;
      plan.assignments.push({ job: job.id, stage: s.id, task: s.tasks, node: a.node, start: a.start });
      return plan;
    }
    case 'unknown-stage': {
      if (acceptedJobs.length === 0) return null;
      const job = rng.pick(acceptedJobs);
      const a = plan.assignments.find((x) => x.job === job.id)!;
      plan.assignments.push({ job: job.id, stage: 'no-such-stage', task: 0, node: a.node, start: a.start });
      return plan;
    }
  }
}
