/**
 * The simulation benchmark as a sweep (issue 25, part 4): every approach over clusters x chunk sizes x
 * safety margins x seeds, planned on the forecasting builder's forecast, each run with the evidence that
 * explains it (evidence.ts). The (cluster, chunk, seed) groups (one generated cluster and one
 * forecast each, every margin inside) run on worker threads; the report is sweep-report.ts.
 *
 *   node dist/bench/simulate.js --sweep [--seeds 10] [--first-seed 1] [--margins 0,5,10,15,20,25,30] [--chunks 128,256]
 *        [--dcs pc1,pc2,univ] [--approaches hadoop,cuckoo,sal-ls,sal-ls-ignored,sal-ls-links] [--budget-ms 1000] [--workers 2]
 *
 * Every run with a plan also records the plan's own makespan and a second replay with the actual load equal to
 * the forecast (sweep-row.ts PlannedRun): planned against realised, issue 38.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { fromPlanDoc, toPlanDoc } from '../../src/engine/schedule/plan-doc';
import { Model } from '../../src/engine/model/model';
import { PlanDoc } from '../../src/engine/model/types';
import { placeReducesOverLinks } from '../../src/engine/placement/shuffle-aware';
import { solve } from '../../src/engine/solve';
import { machineInfo } from '../lib/machine';
import { repoRoot } from '../lib/paths';
import { writeResultsSection } from '../lib/markdown';
import { experiment, oneReplica, RunOf, SLOT_SECONDS, SLOTS } from './experiment';
import { builderForecast } from './forecast';
import { runWithEvidence } from './evidence';
import { renderSweep, renderEvidence } from './sweep-report';
import { PlannedRun, SweepResult, SweepRow } from './sweep-row';

/**
 * sal-ls (and sal-ga, sal-exact, cuckoo-plan) plan with the solve's default, which prices transfers on these
 * instances (issue 38); sal-ls-ignored is the ls plan made with compute alone, as sal-ls was before, and
 * sal-ls-links that plan with its reduces placed again over the links.
 */
export const SWEEP_APPROACHES = ['hadoop', 'cuckoo', 'cuckoo-plan', 'sal-ls', 'sal-ls-ignored', 'sal-ls-links', 'sal-ga', 'sal-exact'] as const;

export interface SweepOptions {
  dcs: string[];
  chunks: number[];
  /** Fractions (0.05 = 5 %). */
  margins: number[];
  seeds: number[];
  approaches: string[];
  budgetMs: number;
  workers: number;
  gen: string;
  traces: string;
  tmp: string;
  mapOutputRatio: Record<number, number>;
  /** A second sweep beside the main one (e.g. `cuckoo-64`): its own results file and its own sections of the reports. */
  name?: string;
}

interface Group {
  dc: string;
  chunk: number;
  seed: number;
}

/** Runs the sweep, writes bench/results/simulate-sweep-<date>.json and the sweep's sections of SIMULATION.md. */
export async function runSweep(o: SweepOptions, command: string): Promise<number> {
  const unknown = o.approaches.filter((a) => !(SWEEP_APPROACHES as readonly string[]).includes(a));
  if (unknown.length) {
    process.stderr.write(`bench:simulate --sweep: unknown approach ${unknown.join(', ')} (one of ${SWEEP_APPROACHES.join(', ')})\n`);
    return 2;
  }
  const started = Date.now();
  const groups: Group[] = [];
  for (const dc of o.dcs) for (const chunk of o.chunks) for (const seed of o.seeds) groups.push({ dc, chunk, seed });
  const rows = (await inWorkers(groups, o, started)).flat();
  rows.sort((a, b) => a.dc.localeCompare(b.dc) || a.chunkMB - b.chunkMB || a.margin - b.margin || a.seed - b.seed || o.approaches.indexOf(a.approach) - o.approaches.indexOf(b.approach));
  const elapsedSeconds = (Date.now() - started) / 1000;
  const result = {
    format: 'fallow.bench.simulate-sweep/v1',
    date: new Date().toISOString(),
    command,
    machine: machineInfo(),
    setup: {
      slotSeconds: SLOT_SECONDS,
      slots: SLOTS,
      forecast: 'the forecasting builder (GBT, q = 0.99) per cluster and seed; actual: the next day',
      mapOutputRatio: o.mapOutputRatio,
      budgetMs: o.budgetMs,
      workers: o.workers,
      dcs: o.dcs,
      chunks: o.chunks,
      margins: o.margins,
      seeds: o.seeds,
      approaches: o.approaches,
    },
    elapsedSeconds,
    rows,
  };
  const suffix = o.name ? `-${o.name}` : '';
  const out = path.join(repoRoot(), 'bench', 'results', `simulate-sweep-${result.date.slice(0, 10)}${suffix}.json`);
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(result, null, 1) + '\n');
  writeSweepReports(result, out, o.name);
  process.stderr.write(`wrote ${out} in ${elapsedSeconds.toFixed(0)} s\n`);
  return 0;
}

/** The sweep's sections of SIMULATION.md and SIMULATION-sweep-evidence.md from a results file (--sweep-report FILE re-renders one). */
export function writeSweepReports(result: SweepResult, out: string, name?: string): void {
  const root = repoRoot();
  const file = path.relative(root, out);
  const md = renderSweep(result, file);
  const suffix = name ? `-${name}` : '';
  writeResultsSection(path.join(root, 'bench', 'SIMULATION.md'), md, `sweep${suffix}`);
  writeResultsSection(path.join(root, 'bench', 'SIMULATION-sweep-evidence.md'), renderEvidence(result, file), `sweep-evidence${suffix}`);
  process.stdout.write(md + '\n');
}

/** Hands the groups to `workers` threads (one at a time each, the next when one is done); one worker runs in this thread. */
async function inWorkers(groups: Group[], o: SweepOptions, started: number): Promise<SweepRow[][]> {
  const out: SweepRow[][] = [];
  let next = 0;
  let done = 0;
  const progress = (g: Group) => process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(0)} s] ${++done}/${groups.length} ${g.dc} ${g.chunk} MB seed ${g.seed}\n`);
  if (o.workers <= 1) {
    for (const g of groups) out.push(await runGroup(g, o)), progress(g);
    return out;
  }
  await Promise.all(
    Array.from({ length: Math.min(o.workers, groups.length) }, async () => {
      while (next < groups.length) {
        const g = groups[next++];
        out.push(await inThread(g, o));
        progress(g);
      }
    }),
  );
  return out;
}

function inThread(group: Group, o: SweepOptions): Promise<SweepRow[]> {
  return new Promise((resolve, reject) => {
    const w = new Worker(__filename, { workerData: { sweepGroup: group, options: o } });
    w.once('message', resolve);
    w.once('error', reject);
    w.once('exit', (code) => code !== 0 && reject(new Error(`sweep worker for ${group.dc}/${group.chunk}/${group.seed} exited with ${code}`)));
  });
}

/** One cluster and forecast (dc, chunk, seed): every margin, every approach. */
async function runGroup({ dc, chunk, seed }: Group, o: SweepOptions): Promise<SweepRow[]> {
  const rows: SweepRow[] = [];
  let usage: ReturnType<typeof builderForecast>['usage'] | undefined;
  for (const margin of o.margins) {
    const { model, actual } = experiment(o.gen, o.tmp, dc, chunk, margin, seed, o.mapOutputRatio[chunk], (doc) => (usage ??= builderForecast(doc, o.traces, seed).usage));
    let ignoredPlan: PlanDoc | undefined;
    const lsIgnored = () => solve(model, { strategy: 'ls', timeBudgetMs: o.budgetMs, seed, transfers: 'ignored' });
    for (const approach of o.approaches) {
      const t0 = Date.now();
      if (approach === 'hadoop' || approach === 'cuckoo') {
        rows.push(toRow({ dc, chunkMB: chunk, margin, seed, approach }, runWithEvidence(model, { policy: approach }, actual, 'cuckoo', seed), null));
        continue;
      }
      let plan: PlanDoc;
      if (approach === 'sal-ls-links') {
        // The ls plan made with compute alone (sal-ls-ignored's, the same one when both run), its reduces placed
        // again over the links: what sal-ls-links was before plans priced transfers. On a priced plan the pass
        // moves nothing (solve.ts: each reduce was already placed by its shuffle), so it starts from the ignored plan.
        ignoredPlan ??= await lsIgnored();
        const s = fromPlanDoc(model, ignoredPlan);
        placeReducesOverLinks(model, s);
        plan = { ...toPlanDoc(model, s, 'ls'), placement: ignoredPlan.placement, stats: { transfers: ignoredPlan.stats?.transfers } };
      } else if (approach === 'sal-ls-ignored') {
        // Salamander's ls plan as it was before issue 38: durations are compute alone (transfers: 'ignored').
        plan = ignoredPlan ??= await lsIgnored();
      } else {
        // sal-ls, sal-ga, sal-exact, cuckoo-plan: the solve's default, which prices every fetch on these instances.
        const strategy = approach === 'cuckoo-plan' ? 'cuckoo' : approach.slice('sal-'.length);
        plan = await solve(model, { strategy, timeBudgetMs: o.budgetMs, seed });
      }
      const solveMs = Date.now() - t0;
      // cuckoo-plan keeps its own WRR replicas and Cuckoo's QoS; Salamander's plans one replica and Alg. 3.
      const [replayed, qos] = approach === 'cuckoo-plan' ? [plan, 'cuckoo'] : [oneReplica(plan), 'salamander'];
      const row = toRow({ dc, chunkMB: chunk, margin, seed, approach }, runWithEvidence(model, { plan: replayed }, actual, qos, seed), solveMs);
      if (plan.rejected.length === 0) row.planned = plannedRun(model, plan, replayed, qos, seed);
      rows.push(row);
    }
  }
  return rows;
}

/**
 * The plan's makespan beside its replay. The plan counts slots from the window's start and the simulator's
 * computeSeconds runs from the job's release to its last task's end, both without the staging (the plan does not
 * schedule it; the simulator adds it before the window's clock starts): the plan's end of its last task less
 * the release is the figure to compare. The replay on the forecast (the regular customers doing exactly what
 * the plan was told they would) takes the forecast's error out of the comparison.
 */
function plannedRun(model: Model, plan: PlanDoc, replayed: PlanDoc, qos: string, seed: number): PlannedRun {
  const job = model.jobs[0];
  const { report } = runWithEvidence(model, { plan: replayed }, model.doc.usage, qos, seed);
  const transfers = plan.stats?.transfers;
  return {
    seconds: (plan.objective.makespanSlots - job.release) * model.slotSeconds,
    transfers: typeof transfers === 'string' ? transfers : null,
    onForecastSeconds: report.jobs[0].computeSeconds,
    onForecastRelaunchedTaskPct: report.relaunchedTaskPct,
  };
}

/** A run's row: where it ran (RunOf) and what the simulator and the evidence say of it. */
function toRow(of: Omit<RunOf, 'accepted'>, { report: r, evidence }: ReturnType<typeof runWithEvidence>, solveMs: number | null): SweepRow {
  const job = r.jobs[0];
  return {
    ...of,
    accepted: r.rejectedJobs === 0,
    finished: job.executionSeconds !== null,
    executionSeconds: job.executionSeconds,
    computeSeconds: job.computeSeconds,
    stagingSeconds: job.stagingSeconds,
    relaunchedTaskPct: r.relaunchedTaskPct,
    remoteTaskPct: r.remoteTaskPct,
    relaunches: r.relaunches,
    stalledTasks: r.stalledTasks,
    events: r.events,
    simMs: r.elapsedMs,
    solveMs,
    evidence,
  };
}

if (!isMainThread && workerData?.sweepGroup)
  runGroup(workerData.sweepGroup, workerData.options).then(
    (rows) => parentPort!.postMessage(rows),
    (e) => {
      throw e;
    },
  );
