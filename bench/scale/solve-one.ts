/**
 * One measured solve of bench:scale, in a process of its own so that its peak memory is its own: generates
 * the instance (harness/scale-instance.ts), loads it, solves it and prints one JSON line (ScaleRun) on stdout.
 *
 *   node dist/bench/scale/solve-one.js '{"seed":1,"tasks":100000,"nodes":999,"strategy":"ls","budgetMs":60000,"gap":0.05}'
 */
import { performance } from 'node:perf_hooks';
import { scaleInstance } from '../../harness/scale-instance';
import { makespanBound } from '../../src/engine/bounds/makespan';
import { loadInstance } from '../../src/engine/model/model';
import { simulatePlan } from '../../src/engine/simulation';
import { solve } from '../../src/engine/solve';

export interface ScaleCase {
  seed: number;
  tasks: number;
  nodes: number;
  strategy: string;
  budgetMs: number;
  /** The gap to the plan's own bound whose first time is reported. */
  gap: number;
  /** ../shared/data when present (else the generator's synthetic load and sizes). */
  dataDir?: string;
  /** Then replay the plan against the next day's load (the instance is its forecast) under the QoS controller. */
  withReplay?: boolean;
  /** Data to move: map chunks on HDFS replicas and shuffle outputs, every fetch priced (scaleInstance's transfers). */
  transfers?: boolean;
}

/** The plan replayed (simulatePlan, Salamander's QoS controller every 0.1 s) against the next day's load. */
export interface ScaleReplay {
  wallMs: number;
  events: number;
  plannedSeconds: number;
  realisedSeconds: number;
  relaunches: number;
  unfinishedJobs: number;
  qosPeriodSeconds: number;
}

export interface ScaleRun extends ScaleCase {
  jobs: number;
  instanceBytes: number;
  generateMs: number;
  loadMs: number;
  boundMs: number;
  /** The solve's wall time (bound, search, evaluation) and its parts the plan reports. */
  solveMs: number;
  boundSlots: number;
  bounds: Record<string, number | null>;
  makespan: number;
  scheduled: number;
  finalGap: number | null;
  /** First time (ms since the solve began) a complete plan was known, and one within `gap` of the bound (null: never). */
  firstPlanMs: number | null;
  gapReachedMs: number | null;
  /** The best makespan by time: [ms, makespan] at every improvement reported. */
  timeline: [number, number][];
  iterations: number;
  movesPerSecond: number | null;
  listDecodes: number | null;
  planBytes: number;
  /** Peak resident memory of this process (MB). */
  peakRssMB: number;
  provenance: unknown;
  replay: ScaleReplay | null;
}

async function main(c: ScaleCase): Promise<ScaleRun> {
  let t = performance.now();
  const doc = scaleInstance({ seed: c.seed, tasks: c.tasks, nodes: c.nodes, dataDir: c.dataDir, transfers: c.transfers });
  const generateMs = performance.now() - t;
  const instanceBytes = Buffer.byteLength(JSON.stringify(doc));
  t = performance.now();
  const model = loadInstance(doc);
  const loadMs = performance.now() - t;
  // The bound alone, timed (the solve computes it again: its time is part of solveMs too).
  t = performance.now();
  makespanBound(model);
  const boundMs = performance.now() - t;
  const timeline: [number, number][] = [];
  let firstPlanMs: number | null = null;
  let gapReachedMs: number | null = null;
  t = performance.now();
  const plan = await solve(model, {
    strategy: c.strategy,
    timeBudgetMs: c.budgetMs,
    seed: c.seed,
    onProgress: (p) => {
      if (p.scheduledTasks < model.nTasks || p.makespanSlots <= 0) return;
      const ms = Math.round(performance.now() - t);
      if (timeline.length === 0 || p.makespanSlots < timeline[timeline.length - 1][1]) timeline.push([ms, p.makespanSlots]);
      firstPlanMs ??= ms;
      if (gapReachedMs === null && p.boundSlots && p.makespanSlots <= p.boundSlots * (1 + c.gap) + 1e-9) gapReachedMs = ms;
    },
  });
  const solveMs = performance.now() - t;
  const stats = (plan.stats ?? {}) as Record<string, unknown>;
  const bounds = (stats.bounds ?? {}) as Record<string, number | null>;
  const boundSlots = plan.bound?.makespanSlots ?? Math.max(...Object.values(bounds).filter((x): x is number => typeof x === 'number'));
  const makespan = plan.objective.makespanSlots;
  const complete = plan.objective.scheduledTasks === model.nTasks;
  if (complete && gapReachedMs === null && makespan <= boundSlots * (1 + c.gap) + 1e-9) gapReachedMs = Math.round(solveMs);
  let replay: ScaleReplay | null = null;
  if (c.withReplay) {
    const actual = scaleInstance({ seed: c.seed, tasks: c.tasks, nodes: c.nodes, dataDir: c.dataDir, transfers: c.transfers, usageShiftSamples: 288 }).usage!;
    t = performance.now();
    const r = simulatePlan(model, plan, { actual });
    replay = {
      wallMs: Math.round(performance.now() - t),
      events: r.events,
      plannedSeconds: makespan * model.slotSeconds,
      realisedSeconds: Math.round(r.makespanSeconds),
      relaunches: r.relaunches,
      unfinishedJobs: r.unfinishedJobs,
      qosPeriodSeconds: r.qosPeriodSeconds,
    };
  }
  const strategyStats = (stats.strategy ?? stats) as Record<string, unknown>;
  return {
    ...c,
    jobs: doc.jobs.length,
    instanceBytes,
    generateMs: Math.round(generateMs),
    loadMs: Math.round(loadMs),
    boundMs: Math.round(boundMs),
    solveMs: Math.round(solveMs),
    boundSlots,
    bounds,
    makespan,
    scheduled: plan.objective.scheduledTasks,
    finalGap: complete ? (makespan - boundSlots) / boundSlots : null,
    firstPlanMs,
    gapReachedMs,
    timeline,
    iterations: Number(stats.iterations ?? 0),
    movesPerSecond: typeof strategyStats.movesPerSecond === 'number' ? strategyStats.movesPerSecond : null,
    listDecodes: typeof strategyStats.listDecodes === 'number' ? strategyStats.listDecodes : null,
    planBytes: Buffer.byteLength(JSON.stringify(plan)),
    peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
    provenance: doc.provenance,
    replay,
  };
}

if (require.main === module) {
  main(JSON.parse(process.argv[2]) as ScaleCase).then(
    (run) => process.stdout.write(JSON.stringify(run) + '\n'),
    (e: Error) => {
      process.stderr.write(`${e.stack ?? e.message}\n`);
      process.exit(1);
    },
  );
}
