/**
 * The papers' experiment (Salamander IV, Cuckoo IV) in Fallow's simulator: one MapReduce job of 640 map
 * and 40 reduce tasks (128 MB or 256 MB chunks, 3100 / 6300 FLOP per byte, 3 / 4 GB RAM; maps write
 * intermediate output that the reduces shuffle, simulate/experiment.ts) on the PC-1,
 * PC-2 and University clusters, whose regular customers replay real Bitbrains traces. Every approach
 * plans with the same forecast and runs against the held-out day (the actual load):
 *   --forecast gbt          (default) the forecasting builder's q = 0.99 forecast, trained per cluster on
 *                           each host's VM trace before the held-out day (simulate/forecast.ts)
 *   --forecast previous-day the previous day's utilisation (the generator's trace offset), as the issue
 *                           allowed before the builder existed; kept so the two can be compared
 *   hadoop       Hadoop default: random 3-replica placement, FIFO locality-first, 20 slots, Cuckoo QoS
 *   cuckoo       Cuckoo: host weights + WRR placement + accept/reject, Hadoop dispatch on the same 20 fixed
 *                slots, Cuckoo QoS
 *   cuckoo-plan  the `cuckoo` strategy's plan (same replicas and admission) replayed with Cuckoo QoS
 *   sal-<s>      Salamander: a plan from strategy s (ls, ga, exact) with its scheduler-driven placement
 *                (one replica, III-C), replayed with Salamander's QoS controller (Alg. 3)
 * Writes bench/results/simulate-<date>-<forecast>.json and, for the full run, that forecast's results
 * section of bench/SIMULATION.md plus the table comparing the two forecasts (simulate/compare.ts).
 *
 *   npm run bench:simulate -- [--quick] [--budget-ms 2000] [--seeds 2] [--forecast gbt|previous-day]
 *   npm run bench:simulate -- --throughput         only the 100k-task throughput line
 *   npm run bench:simulate -- --sweep [--seeds 10] [--first-seed 1] [--margins 0,5,10,15,20,25,30] [--chunks 128,256]
 *        [--dcs pc1,pc2,univ] [--approaches hadoop,cuckoo,sal-ls,sal-ls-ignored,sal-ls-links] [--budget-ms 1000] [--workers 2]
 *                                                  the sweep with evidence per reversal (simulate/sweep.ts)
 *        [--name NAME]                             a sweep beside the main one: its own results file and report sections
 *   npm run bench:simulate -- --sweep-report bench/results/simulate-sweep-<date>.json   re-render its sections
 * Skips (exit 0) when ../shared/data or python3 is missing. The Bitbrains traces are read in place in
 * ../shared/data; generated instances go to .tmp/sim-bench/.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadInstance } from '../src/engine/model/model';
import { InstanceDoc } from '../src/engine/model/types';
import { simulatePlan, simulatePolicy, SimReport } from '../src/engine/simulation';
import { median } from '../src/engine/simulate/run-report';
import { solve } from '../src/engine/solve';
import { command, EntryArgs, nothingToRun, runEntry } from './lib/cli';
import { repoRoot, sharedDir } from './lib/paths';
import { writeResultsSection } from './lib/markdown';
import { FORECASTS, ForecastKind, forecastComparison, latestResults } from './simulate/compare';
import { builderForecast, BuiltForecast, DAY_ROWS } from './simulate/forecast';
import { experiment, oneReplica, paperJob, RunOf, SLOT_SECONDS, SLOTS, swimShuffleRatio } from './simulate/experiment';
import { runSweep, SWEEP_APPROACHES, writeSweepReports } from './simulate/sweep';

const STRATEGIES = ['ls', 'ga', 'exact'];

interface Row extends RunOf {
  executionSeconds: number | null;
  computeSeconds: number | null;
  stagingSeconds: number;
  makespanSeconds: number;
  relaunchedTaskPct: number;
  stalledTasks: number;
  remoteTaskPct: number;
  bytesMoved: number;
  interferenceSlots: number;
  unfinishedJobs: number;
  events: number;
  simMs: number;
  solveMs: number | null;
}

const COMMAND = command({
  name: 'bench:simulate',
  usage: 'usage: npm run bench:simulate -- [options]     (or, after npm run build: node dist/bench/simulate.js [options])',
  options: {
    quick: { kind: 'flag', help: 'one cluster (pc1), one chunk size, one margin, one seed: a quick look, not written into SIMULATION.md' },
    'budget-ms': { kind: 'number', above: 0, default: 2000, arg: 'N', help: "each plan's solving budget (default 2000)" },
    seeds: { kind: 'integer', min: 1, arg: 'N', help: 'seeds per configuration (default 2; the sweep 10)' },
    'first-seed': { kind: 'integer', min: 1, default: 1, arg: 'N', help: 'the seeds are N, N+1, ... (default 1): fresh clusters and traces beside an earlier run' },
    out: { kind: 'string', arg: 'FILE', help: 'results file (default bench/results/simulate-<date>-<forecast>.json)' },
    forecast: { kind: 'string', default: 'gbt', arg: 'F', help: `what the plans are made on: ${FORECASTS.join(' | ')}   (default gbt)` },
    throughput: { kind: 'flag', help: "only the 100k-task throughput line (the simulator's speed, before/after a change)" },
    // The sweep (simulate/sweep.ts): distributions over margins x seeds with evidence per reversal.
    sweep: { kind: 'flag', help: 'the sweep: every approach over clusters x chunk sizes x margins x seeds, with evidence per reversal' },
    margins: { kind: 'string', default: '0,5,10,15,20,25,30', arg: 'M,M', help: "the sweep's safety margins, % (default 0,5,10,15,20,25,30)" },
    chunks: { kind: 'string', default: '128,256', arg: 'MB,MB', help: "the sweep's chunk sizes (default 128,256)" },
    dcs: { kind: 'string', default: 'pc1,pc2,univ', arg: 'D,D', help: "the sweep's clusters (default pc1,pc2,univ)" },
    approaches: { kind: 'string', default: 'hadoop,cuckoo,sal-ls,sal-ls-ignored,sal-ls-links', arg: 'A,A', help: `the sweep's approaches, of ${SWEEP_APPROACHES.join(', ')} (default hadoop,cuckoo,sal-ls,sal-ls-ignored,sal-ls-links)` },
    workers: { kind: 'integer', min: 1, default: 2, arg: 'N', help: "the sweep's worker threads (default 2)" },
    'sweep-report': { kind: 'string', arg: 'FILE', help: "only re-render the sweep's sections from its results file" },
    // A sweep beside the main one: results in simulate-sweep-<date>-NAME.json, sections sweep-NAME in the reports.
    name: { kind: 'string', arg: 'NAME', help: 'a sweep beside the main one: its own results file and report sections' },
  },
});

export async function main({ values }: EntryArgs<typeof COMMAND.options>): Promise<number> {
  const forecastKind = values.forecast as ForecastKind;
  if (!FORECASTS.includes(forecastKind)) {
    process.stderr.write(`bench:simulate: --forecast must be one of ${FORECASTS.join(', ')}, got "${values.forecast}"\n`);
    return 2;
  }
  const root = repoRoot();
  if (values['sweep-report']) {
    // Re-renders the sweep's sections from its results file (the report changed, the runs did not).
    writeSweepReports(JSON.parse(readFileSync(values['sweep-report'], 'utf8')), path.resolve(values['sweep-report']), values.name);
    return 0;
  }
  const shared = sharedDir();
  const gen = path.join(shared, 'tools', 'gen-instance.py');
  const traces = path.join(shared, 'data', 'bitbrains-rnd', '2013-7');
  if (!existsSync(traces) || !existsSync(gen)) return nothingToRun('bench:simulate', `${traces} or ${gen} not found (../shared or $FALLOW_SHARED)`);
  try {
    execFileSync('python3', ['--version'], { stdio: 'ignore' });
  } catch {
    return nothingToRun('bench:simulate', 'python3 not found (gen-instance.py needs it)');
  }
  const budget = values['budget-ms'];
  const quick = values.quick;
  const list = (x: string) => x.split(',').map((v) => v.trim()).filter(Boolean);
  const dcs = values.sweep ? list(values.dcs) : quick ? ['pc1'] : ['pc1', 'pc2', 'univ'];
  const chunks = values.sweep ? list(values.chunks).map(Number) : quick ? [128] : [128, 256];
  const swim = path.join(shared, 'data', 'swim-facebook', 'FB-2009_samples_24_times_1hr_0.tsv');
  const outputRatio: Record<number, number> = Object.fromEntries(chunks.map((c) => [c, swimShuffleRatio(swim, c)]));
  const margins = values.sweep ? list(values.margins).map((m) => Number(m) / 100) : quick ? [0.05] : [0, 0.05, 0.1, 0.2, 0.3];
  const firstSeed = values['first-seed'];
  const seeds = Array.from({ length: quick ? 1 : (values.seeds ?? (values.sweep ? 10 : 2)) }, (_, i) => firstSeed + i);
  const seedsArg = `--seeds ${seeds.length}${firstSeed !== 1 ? ` --first-seed ${firstSeed}` : ''}`;
  const tmp = path.join(root, '.tmp', 'sim-bench');
  mkdirSync(tmp, { recursive: true });
  if (values.sweep) {
    const approaches = list(values.approaches);
    const command = `node dist/bench/simulate.js --sweep ${seedsArg} --margins ${values.margins} --chunks ${chunks.join(',')} --dcs ${dcs.join(',')} --approaches ${approaches.join(',')} --budget-ms ${budget} --workers ${values.workers}${values.name ? ` --name ${values.name}` : ''}`;
    return runSweep({ dcs, chunks, margins, seeds, approaches, budgetMs: budget, workers: values.workers, gen, traces, tmp, mapOutputRatio: outputRatio, name: values.name }, command);
  }
  if (values.throughput) {
    // Only the 100k-task throughput line (before/after comparisons of the simulator's speed).
    process.stdout.write(JSON.stringify(measureThroughput(gen, tmp, outputRatio[128] ?? swimShuffleRatio(swim, 128))) + '\n');
    return 0;
  }

  const rows: Row[] = [];
  const forecasts: ForecastNote[] = [];
  const started = Date.now();
  // The hosts and trace window depend on (dc, chunk, seed), not on the margin: one training each.
  const built = new Map<string, BuiltForecast>();
  const forecastFor = (doc: InstanceDoc, dc: string, chunk: number, seed: number): InstanceDoc['usage'] => {
    if (forecastKind === 'previous-day') return doc.usage;
    const key = `${dc}/${chunk}/${seed}`;
    let b = built.get(key);
    if (!b) {
      b = builderForecast(doc, traces, seed);
      built.set(key, b);
      forecasts.push({ key, trainMs: b.trainMs, historyRows: b.historyRows, wrappedHosts: b.wrappedHosts });
      process.stderr.write(`forecast ${key}: trained on ${Math.min(...b.historyRows)}-${Math.max(...b.historyRows)} rows per host in ${b.trainMs} ms${b.wrappedHosts.length ? `; held-out window wraps past the trace end on ${b.wrappedHosts.join(', ')}` : ''}\n`);
    }
    return b.usage;
  };
  for (const dc of dcs)
    for (const chunk of chunks)
      for (const margin of margins)
        for (const seed of seeds) {
          const { model, actual } = experiment(gen, tmp, dc, chunk, margin, seed, outputRatio[chunk], (doc) => forecastFor(doc, dc, chunk, seed));
          const base = { dc, chunkMB: chunk, margin, seed };
          for (const policy of ['hadoop', 'cuckoo']) {
            const r = simulatePolicy(model, policy, { actual, qos: 'cuckoo', seed });
            rows.push(row(base, policy, r, null));
          }
          {
            // Cuckoo's plan (the `cuckoo` strategy): its own WRR replicas, replayed with Cuckoo's QoS.
            const t0 = Date.now();
            const plan = await solve(model, { strategy: 'cuckoo', timeBudgetMs: budget, seed });
            const r = simulatePlan(model, plan, { actual, qos: 'cuckoo', seed });
            rows.push(row(base, 'cuckoo-plan', r, Date.now() - t0));
          }
          for (const strategy of STRATEGIES) {
            const t0 = Date.now();
            const plan = await solve(model, { strategy, timeBudgetMs: budget, seed });
            const solveMs = Date.now() - t0;
            const r = simulatePlan(model, oneReplica(plan), { actual, qos: 'salamander', seed });
            rows.push(row(base, `sal-${strategy}`, r, solveMs));
          }
          const last = rows.slice(-5).map((x) => `${x.approach} ${x.executionSeconds === null ? (x.accepted ? 'unfinished' : 'rejected') : (x.executionSeconds / 60).toFixed(1) + ' min'} ${x.relaunchedTaskPct.toFixed(1)}% relaunched ${x.remoteTaskPct.toFixed(1)}% remote`);
          process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(0)} s] ${dc} ${chunk} MB sm ${margin} seed ${seed}: ${last.join(' | ')}\n`);
        }

  const throughput = measureThroughput(gen, tmp, outputRatio[128] ?? swimShuffleRatio(swim, 128));
  const forecastSetup =
    forecastKind === 'gbt'
      ? `the forecasting builder (GBT, q = 0.99, 300-s slots) trained per cluster on each host's VM rows before the held-out day, forecast over the window`
      : `previous day (gen-instance.py offset)`;
  const summary = summarise(rows);
  const result = {
    format: 'fallow.bench.simulate/v1',
    date: new Date().toISOString(),
    command: `npm run bench:simulate --${quick ? ' --quick' : ''} --budget-ms ${budget} ${seedsArg} --forecast ${forecastKind}`,
    setup: { slotSeconds: SLOT_SECONDS, slots: SLOTS, mapOutputRatio: outputRatio, forecastKind, forecast: `${forecastSetup}; actual: the next day (--usage-shift-samples ${DAY_ROWS})`, budgetMs: budget, dcs, chunks, margins, seeds },
    forecasts,
    throughput,
    summary,
    rows,
    elapsedSeconds: (Date.now() - started) / 1000,
  };
  const day = result.date.slice(0, 10);
  const resultsDir = path.join(root, 'bench', 'results');
  const out = values.out ?? path.join(resultsDir, `simulate-${day}-${forecastKind}${quick ? '-quick' : ''}.json`);
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(result, null, 1) + '\n');
  const md = renderMarkdown(result, path.relative(root, out));
  process.stdout.write(md + '\n');
  if (!quick) {
    const doc = path.join(root, 'bench', 'SIMULATION.md');
    writeResultsSection(doc, md, forecastKind === 'gbt' ? 'results' : `results-${forecastKind}`);
    const comparison = forecastComparison(latestResults(resultsDir), root);
    if (comparison) writeResultsSection(doc, comparison, 'forecast-comparison');
  }
  process.stderr.write(`wrote ${out}\n`);
  return 0;
}

interface ForecastNote {
  key: string;
  trainMs: number;
  historyRows: number[];
  wrappedHosts: string[];
}

function row(base: { dc: string; chunkMB: number; margin: number; seed: number }, approach: string, r: SimReport, solveMs: number | null): Row {
  return {
    ...base,
    approach,
    accepted: r.rejectedJobs === 0,
    executionSeconds: r.jobs[0].executionSeconds,
    computeSeconds: r.jobs[0].computeSeconds,
    stagingSeconds: r.jobs[0].stagingSeconds,
    makespanSeconds: r.makespanSeconds,
    relaunchedTaskPct: r.relaunchedTaskPct,
    stalledTasks: r.stalledTasks,
    remoteTaskPct: r.remoteTaskPct,
    bytesMoved: r.bytesMoved,
    interferenceSlots: r.interferenceSlots,
    unfinishedJobs: r.unfinishedJobs,
    events: r.events,
    simMs: r.elapsedMs,
    solveMs,
  };
}

/** Events per second on a large run: PC-2 with 40 jobs of 2,400 maps + 100 reduces (100,000 tasks), Hadoop. */
export function measureThroughput(gen: string, tmp: string, mapOutputRatio: number) {
  const { model: small, actual } = experiment(gen, tmp, 'pc2', 128, 0.05, 1, mapOutputRatio);
  const doc: InstanceDoc = { ...small.doc, horizon: { slots: SLOTS, slotSeconds: 600 } };
  doc.jobs = Array.from({ length: 40 }, (_, j) => {
    const job = paperJob(128, mapOutputRatio);
    job.id = `job${j}`;
    job.stages[0].tasks = 2400;
    job.stages[1].tasks = 100;
    return job;
  });
  const model = loadInstance(doc);
  const out: Record<string, unknown> = { tasks: model.nTasks };
  for (const policy of ['hadoop', 'cuckoo']) {
    const t0 = process.hrtime.bigint();
    const r = simulatePolicy(model, policy, { actual, qos: 'cuckoo', seed: 1 });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    out[policy] = { events: r.events, ms: Math.round(ms), eventsPerSecond: Math.round(r.events / (ms / 1000)), relaunches: r.relaunches, unfinishedJobs: r.unfinishedJobs };
  }
  return out;
}

interface Cell {
  runs: number;
  rejected: number;
  /** Accepted but not finished when the simulation gave up (10 window lengths). */
  unfinished: number;
  medianExecutionMin: number | null;
  medianComputeMin: number | null;
  medianRelaunchedPct: number;
  maxRelaunchedPct: number;
  medianRemotePct: number;
}

function summarise(rows: Row[]) {
  const approaches = [...new Set(rows.map((r) => r.approach))];
  const groups = [...new Set(rows.map((r) => `${r.dc}/${r.chunkMB}`))];
  const cells: Record<string, Record<string, Cell>> = {};
  for (const g of [...groups, 'all'])
    for (const a of approaches) {
      const rs = rows.filter((r) => r.approach === a && (g === 'all' || `${r.dc}/${r.chunkMB}` === g));
      const ran = rs.filter((r) => r.executionSeconds !== null);
      (cells[g] ??= {})[a] = {
        runs: rs.length,
        rejected: rs.filter((r) => !r.accepted).length,
        unfinished: rs.filter((r) => r.accepted && r.unfinishedJobs > 0).length,
        medianExecutionMin: ran.length ? median(ran.map((r) => r.executionSeconds! / 60)) : null,
        medianComputeMin: ran.length ? median(ran.map((r) => r.computeSeconds! / 60)) : null,
        medianRelaunchedPct: median(ran.map((r) => r.relaunchedTaskPct)),
        maxRelaunchedPct: Math.max(0, ...ran.map((r) => r.relaunchedTaskPct)),
        medianRemotePct: median(ran.map((r) => r.remoteTaskPct)),
      };
    }
  // Per experiment (dc, chunk, margin, seed): Salamander's gain over Cuckoo, Cuckoo's speed-up over Hadoop.
  const key = (r: Row) => `${r.dc}/${r.chunkMB}/${r.margin}/${r.seed}`;
  const byKey = new Map<string, Map<string, Row>>();
  for (const r of rows) (byKey.get(key(r)) ?? byKey.set(key(r), new Map()).get(key(r))!).set(r.approach, r);
  const gain: Record<string, number[]> = {};
  const computeGain: Record<string, number[]> = {};
  const speedup: number[] = [];
  const computeSpeedup: number[] = [];
  for (const m of byKey.values()) {
    const c = m.get('cuckoo')?.executionSeconds;
    const h = m.get('hadoop')?.executionSeconds;
    if (c && h) speedup.push(h / c);
    const cc = m.get('cuckoo')?.computeSeconds;
    const hc = m.get('hadoop')?.computeSeconds;
    if (cc && hc) computeSpeedup.push(hc / cc);
    for (const s of STRATEGIES) {
      const x = m.get(`sal-${s}`)?.executionSeconds;
      if (c && x) (gain[s] ??= []).push((c - x) / c);
      const xc = m.get(`sal-${s}`)?.computeSeconds;
      if (cc && xc) (computeGain[s] ??= []).push((cc - xc) / cc);
    }
  }
  const meanPct = (xs: number[]) => (xs.length ? (100 * xs.reduce((a, b) => a + b, 0)) / xs.length : null);
  return {
    cells,
    salamanderGainOverCuckooPct: Object.fromEntries(STRATEGIES.map((s) => [s, { mean: meanPct(gain[s] ?? []), max: gain[s]?.length ? 100 * Math.max(...gain[s]) : null, runs: gain[s]?.length ?? 0 }])),
    salamanderComputeGainOverCuckooPct: Object.fromEntries(STRATEGIES.map((s) => [s, { mean: meanPct(computeGain[s] ?? []), runs: computeGain[s]?.length ?? 0 }])),
    cuckooSpeedupOverHadoop: { median: median(speedup), min: speedup.length ? Math.min(...speedup) : null, max: speedup.length ? Math.max(...speedup) : null },
    cuckooComputeSpeedupOverHadoop: { median: median(computeSpeedup), min: computeSpeedup.length ? Math.min(...computeSpeedup) : null, max: computeSpeedup.length ? Math.max(...computeSpeedup) : null },
  };
}

function renderMarkdown(result: any, file: string): string {
  const { cells, salamanderGainOverCuckooPct: gain, salamanderComputeGainOverCuckooPct: cgain, cuckooSpeedupOverHadoop: sp, cuckooComputeSpeedupOverHadoop: csp } = result.summary;
  const approaches = Object.keys(cells.all);
  const f = (x: number | null, d = 1) => (x === null ? '–' : x.toFixed(d));
  const lines: string[] = [];
  lines.push(`Generated by \`${result.command}\` on ${result.date.slice(0, 10)} in ${result.elapsedSeconds.toFixed(0)} s (${file}).`);
  lines.push('');
  lines.push(`Forecast: ${result.setup.forecast}.`);
  lines.push('');
  lines.push('Median job execution time incl. staging (min) / median time on the cluster without staging (min) / median % relaunched tasks / median % remote tasks, over the safety margins and seeds of the runs that finished; `rej` = runs where the approach rejected the job, `unf` = runs accepted but unfinished after 10 window lengths.');
  lines.push('');
  lines.push(`| cluster / chunk | ${approaches.join(' | ')} |`);
  lines.push(`|---|${approaches.map(() => '---').join('|')}|`);
  for (const [g, row] of Object.entries(cells) as [string, Record<string, Cell>][]) {
    const cellsText = approaches.map((a) => {
      const c = row[a];
      return `${f(c.medianExecutionMin)} / ${f(c.medianComputeMin)} / ${f(c.medianRelaunchedPct)}% / ${f(c.medianRemotePct)}%${c.rejected ? ` (rej ${c.rejected})` : ''}${c.unfinished ? ` (unf ${c.unfinished})` : ''}`;
    });
    lines.push(`| ${g} | ${cellsText.join(' | ')} |`);
  }
  lines.push('');
  lines.push('Salamander vs Cuckoo, job execution time, mean (max) gain over the same experiments:');
  for (const [s, v] of Object.entries(gain) as [string, any][]) lines.push(`- ${s}: ${f(v.mean)}% (${f(v.max)}%) over ${v.runs} runs`);
  lines.push(`- Cuckoo vs Hadoop default: ${f(sp.median, 2)}x faster (median; ${f(sp.min, 2)}x to ${f(sp.max, 2)}x)`);
  lines.push('');
  lines.push('The same without staging (time on the cluster only):');
  for (const [s, v] of Object.entries(cgain) as [string, any][]) lines.push(`- ${s}: ${f(v.mean)}% over ${v.runs} runs`);
  lines.push(`- Cuckoo vs Hadoop default: ${f(csp.median, 2)}x faster (median; ${f(csp.min, 2)}x to ${f(csp.max, 2)}x)`);
  const t = result.throughput;
  lines.push('');
  lines.push(`Throughput (${t.tasks} tasks, PC-2): Hadoop ${t.hadoop.events} events in ${t.hadoop.ms} ms = ${t.hadoop.eventsPerSecond} events/s; Cuckoo ${t.cuckoo.events} events in ${t.cuckoo.ms} ms = ${t.cuckoo.eventsPerSecond} events/s.`);
  return lines.join('\n');
}

if (require.main === module) runEntry(COMMAND, main);
