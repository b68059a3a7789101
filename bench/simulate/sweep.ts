/**
 * The simulation benchmark as a sweep (issue 25, part 4): every approach over clusters x chunk sizes x
 * safety margins x seeds, planned on the forecasting builder's forecast, each run with the evidence that
 * explains it (evidence.ts). The (cluster, chunk, seed) groups (one generated cluster and one
 * forecast each, every margin inside) run on worker threads; the report is sweep-report.ts.
 *
 *   node dist/bench/simulate.js --sweep [--seeds 10] [--margins 0,5,10,15,20,25,30] [--chunks 128,256]
 *        [--dcs pc1,pc2,univ] [--approaches hadoop,cuckoo,sal-ls,sal-ls-links] [--budget-ms 1000] [--workers 2]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { fromPlanDoc, toPlanDoc } from '../../src/engine/schedule/plan-doc';
import { PlanDoc } from '../../src/engine/model/types';
import { placeReducesOverLinks } from '../../src/engine/placement/shuffle-aware';
import { solve } from '../../src/engine/solve';
import { repoRoot } from '../lib/paths';
import { writeResultsSection } from '../lib/markdown';
import { experiment, oneReplica, SLOT_SECONDS, SLOTS } from './experiment';
import { builderForecast } from './forecast';
import { runWithEvidence } from './evidence';
import { renderSweep, renderEvidence } from './sweep-report';
import { SweepResult, SweepRow } from './sweep-row';

export const SWEEP_APPROACHES = ['hadoop', 'cuckoo', 'cuckoo-plan', 'sal-ls', 'sal-ls-links', 'sal-ga', 'sal-exact'] as const;

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
    let lsPlan: PlanDoc | undefined;
    for (const approach of o.approaches) {
      const t0 = Date.now();
      let solveMs: number | null = null;
      let run;
      if (approach === 'hadoop' || approach === 'cuckoo') run = runWithEvidence(model, { policy: approach }, actual, 'cuckoo', seed);
      else if (approach === 'sal-ls-links') {
        // Salamander's ls plan (the same one sal-ls ran when it is in the sweep), its reduces placed again over the links.
        lsPlan ??= await solve(model, { strategy: 'ls', timeBudgetMs: o.budgetMs, seed });
        const s = fromPlanDoc(model, lsPlan);
        placeReducesOverLinks(model, s);
        solveMs = Date.now() - t0;
        run = runWithEvidence(model, { plan: oneReplica({ ...toPlanDoc(model, s, 'ls'), placement: lsPlan.placement }) }, actual, 'salamander', seed);
      } else {
        const strategy = approach === 'cuckoo-plan' ? 'cuckoo' : approach.slice('sal-'.length);
        const plan = await solve(model, { strategy, timeBudgetMs: o.budgetMs, seed });
        if (approach === 'sal-ls') lsPlan = plan;
        solveMs = Date.now() - t0;
        run = approach === 'cuckoo-plan' ? runWithEvidence(model, { plan }, actual, 'cuckoo', seed) : runWithEvidence(model, { plan: oneReplica(plan) }, actual, 'salamander', seed);
      }
      const { report: r, evidence } = run;
      const job = r.jobs[0];
      rows.push({
        dc,
        chunkMB: chunk,
        margin,
        seed,
        approach,
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
      });
    }
  }
  return rows;
}

if (!isMainThread && workerData?.sweepGroup)
  runGroup(workerData.sweepGroup, workerData.options).then(
    (rows) => parentPort!.postMessage(rows),
    (e) => {
      throw e;
    },
  );
