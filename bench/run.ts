/**
 * The benchmark harness, its own entry point (not part of the `fallow` CLI): `npm run bench -- [options]`
 * or `node dist/bench/run.js [options]` after a build. See bench/README.md.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { getStrategy, strategyNames } from '../src/engine/strategies';
import { command, EntryArgs, nothingToRun, runEntry, UsageError } from './lib/cli';
import { checkPlans } from './solve/checkplan';
import { SolveJob } from './solve/child';
import { ALL_SUITES, BenchInstance, defaultBudgetMs, Measurement, RESULTS_FORMAT, ResultsFile, RunRecord, SolveOutcome, SuiteName } from './solve/types';
import { cacheDir, resultsDir, sharedDir } from './lib/paths';
import { machineInfo, timestamp } from './lib/machine';
import { largeInstanceFile, measureLoad } from './solve/measure';
import { writeReport } from './solve/results-report';
import { RunnerOptions, runSolve } from './solve/run-solve';
import { loadSuite } from './solve/suites';

/** The options of `npm run bench`; --help prints them as listed here. */
export const COMMAND = command({
  name: 'fallow bench',
  usage: 'usage: npm run bench -- [options]     (or, after npm run build: node dist/bench/run.js [options])',
  helpColumn: 25,
  options: {
    suite: { kind: 'string', default: 'all', arg: 'S[,S]', help: 'shared | ephemeral | j30 | j120 | measure | all   (default all)' },
    strategies: { kind: 'string', arg: 'A,B', help: 'strategies to run (default: every registered strategy, plus auto when available)' },
    'budget-ms': {
      kind: 'string',
      arg: 'N',
      help:
        'budget of every main run, or per strategy: --budget-ms ls=2000,exact=20000\n' +
        '(defaults: j30 exact 10000, others 1000; j120 5000; shared and ephemeral exact 60000,\n' +
        'others 10000)',
    },
    'ref-budget-ms': { kind: 'number', above: 0, default: 60000, arg: 'N', help: 'budget of the "best of all" reference runs on shared and ephemeral (default 60000)' },
    'no-ref': { kind: 'flag', help: 'skip the reference runs;  --only-ref: run only them' },
    'only-ref': { kind: 'flag' },
    limit: { kind: 'integer', arg: 'N', help: 'the first N instances of each suite (after --sample)' },
    sample: { kind: 'integer', arg: 'N', help: 'N evenly spaced instances of each suite (j120 default 60: every 10th file)' },
    filter: { kind: 'string', arg: 'A,B', help: 'only instances whose name contains A or B' },
    seed: { kind: 'integer', default: 1, arg: 'N', help: 'seed of every solve (default 1)' },
    jobs: { kind: 'integer', default: 1, arg: 'N', help: 'solves run in parallel child processes (default 1: parallel runs disturb timing)' },
    'in-process': { kind: 'flag', help: 'run solves in this process instead of one child process per solve' },
    'timeout-factor': { kind: 'number', min: 1, default: 2, arg: 'F', help: 'a child is killed after budget * F + 30 s (default 2)' },
    out: { kind: 'string', arg: 'FILE', help: 'results file (default bench/results/<suite>-<date>.json)' },
    shared: { kind: 'string', arg: 'DIR', help: 'the shared directory (default ../shared or $FALLOW_SHARED)' },
    cache: { kind: 'string', arg: 'DIR', help: 'where generated instances and plans go (default .tmp/bench, outside git)' },
    note: { kind: 'strings', arg: 'TEXT', help: 'a remark stored in the results file and printed in RESULTS.md (repeatable)' },
    'dry-run': { kind: 'flag', help: 'list the runs and the total budget, run nothing' },
    'no-report': { kind: 'flag', help: 'do not regenerate bench/RESULTS.md after the run' },
    'report-only': { kind: 'flag', help: 'only regenerate bench/RESULTS.md from bench/results/*.json' },
  },
});

interface PlannedRun {
  inst: BenchInstance;
  strategy: string;
  kind: 'main' | 'ref';
  budgetMs: number;
}

function parseBudget(spec: string | undefined): { all?: number; per: Map<string, number> } {
  const per = new Map<string, number>();
  if (spec === undefined) return { per };
  if (/^\d+(\.\d+)?$/.test(spec)) return { all: Number(spec), per };
  for (const part of spec.split(',')) {
    const [k, v] = part.split('=');
    if (!k || !(Number(v) > 0)) throw new UsageError(`--budget-ms: cannot read "${part}" (want N or name=N,...)`);
    per.set(k.trim(), Number(v));
  }
  return { per };
}

export function availableStrategies(): string[] {
  const names = strategyNames();
  if (!names.includes('auto')) {
    try {
      getStrategy('auto');
      names.push('auto');
    } catch {
      /* no auto yet */
    }
  }
  return names;
}

export async function main({ values, argv }: EntryArgs<typeof COMMAND.options>): Promise<number> {
  const log = (msg: string) => process.stderr.write(msg + '\n');
  if (values['report-only']) {
    const file = writeReport();
    log(`wrote ${file}`);
    return 0;
  }

  const suiteArg = values.suite;
  const suites = suiteArg === 'all' ? ALL_SUITES : (suiteArg.split(',').map((x) => x.trim()) as SuiteName[]);
  for (const x of suites) if (!ALL_SUITES.includes(x)) throw new UsageError(`unknown suite "${x}" (one of ${ALL_SUITES.join(', ')}, all)`);
  const budget = parseBudget(values['budget-ms']);
  const { limit, sample, seed } = values;
  const jobs = Math.max(1, values.jobs);
  const refBudget = values['ref-budget-ms'];
  const timeoutFactor = values['timeout-factor'];

  const shared = sharedDir(values.shared);
  const cache = cacheDir(values.cache);
  if (!existsSync(shared)) return nothingToRun('fallow bench', `the shared directory ${shared} is absent (--shared DIR or $FALLOW_SHARED); every suite needs it`);

  const registered = availableStrategies();
  const strategies = values.strategies ? values.strategies.split(',').map((x) => x.trim()).filter(Boolean) : registered;
  for (const s of strategies) if (!registered.includes(s)) log(`warning: strategy "${s}" is not registered (have ${registered.join(', ')}); its runs will record the error`);

  // Plan every run first (instances are generated / converted here, before any timing starts).
  const skipped: string[] = [];
  const mainRuns: PlannedRun[] = [];
  const refs: PlannedRun[] = [];
  const filter = values.filter ? values.filter.split(',') : undefined;
  for (const suite of suites) {
    if (suite === 'measure') continue;
    const r = loadSuite(suite, { shared, cache, limit, sample, filter, log });
    skipped.push(...r.skipped);
    for (const inst of r.instances) {
      for (const strategy of strategies) {
        const b = budget.per.get(strategy) ?? budget.all ?? defaultBudgetMs(suite, strategy);
        mainRuns.push({ inst, strategy, kind: 'main', budgetMs: b });
        const isRefSuite = suite === 'shared' || suite === 'ephemeral';
        // exact's main run already has the reference budget on these suites (unless overridden).
        if (isRefSuite && !values['no-ref'] && b < refBudget) refs.push({ inst, strategy, kind: 'ref', budgetMs: refBudget });
      }
    }
  }
  const planned = values['only-ref'] ? refs : [...mainRuns, ...refs];
  for (const s of skipped) log(`skipped: ${s}`);
  if (planned.length === 0 && !suites.includes('measure'))
    return nothingToRun('fallow bench', `no instance of ${suites.join(', ')} matched${skipped.length ? ` (skipped: ${skipped.join('; ')})` : ''}`);
  const totalBudget = planned.reduce((a, p) => a + p.budgetMs, 0);
  log(
    `fallow bench: ${planned.length} solves (${values['only-ref'] ? 0 : mainRuns.length} main, ${refs.length} reference) of ${strategies.join(', ')} on ` +
      `${suites.join(', ')}; at most ${totalBudget >= 120000 ? `${(totalBudget / 60000).toFixed(1)} min` : `${(totalBudget / 1000).toFixed(1)} s`} of budgets, ${jobs} at a time`,
  );
  if (values['dry-run']) {
    for (const p of planned) process.stdout.write(`${p.inst.suite}\t${p.inst.name}\t${p.strategy}\t${p.kind}\t${p.budgetMs}\n`);
    return 0;
  }

  const outFile = path.resolve(
    values.out ?? path.join(resultsDir(), `${suites.length === ALL_SUITES.length ? 'all' : suites.join('+')}-${timestamp()}.json`),
  );
  mkdirSync(path.dirname(outFile), { recursive: true });
  const session = path.basename(outFile).replace(/\.json$/, '');
  const results: ResultsFile = {
    format: RESULTS_FORMAT,
    startedAt: new Date().toISOString(),
    finishedAt: null,
    machine: machineInfo(),
    argv,
    options: {
      suites,
      strategies,
      budgetMs: values['budget-ms'] ?? 'defaults',
      refBudgetMs: values['no-ref'] || !suites.some((x) => x === 'shared' || x === 'ephemeral') ? null : refBudget,
      limit: limit ?? null,
      sample: sample ?? null,
      filter: filter ?? null,
      seed,
      jobs,
      inProcess: values['in-process'],
    },
    strategies: registered,
    runs: [],
    measurements: [],
    skipped,
    notes: values.note,
  };
  const save = () => writeFileSync(outFile, JSON.stringify(results, null, 1) + '\n');
  save();

  const runner: RunnerOptions = { inProcess: values['in-process'], timeoutFactor, timeoutSlackMs: 30000 };
  const unchecked: RunRecord[] = [];
  const flushChecks = () => {
    const todo = unchecked.splice(0).filter((r) => r.planFile);
    const verdicts = checkPlans(
      shared,
      todo.map((r) => [r.file, r.planFile!]),
    );
    todo.forEach((r, i) => {
      r.feasibleCheckPlan = verdicts[i].feasible;
      r.checkPlanErrors = verdicts[i].errors;
      if (verdicts[i].feasible === false) log(`  check-plan.py rejects ${r.suite} ${r.instance} ${r.strategy}: ${verdicts[i].errors.slice(0, 2).join('; ')}`);
    });
    save();
  };

  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < planned.length) {
      const p = planned[next++];
      const planFile = path.join(cache, 'plans', session, p.inst.suite, `${p.inst.name}.${p.strategy}.${p.kind}.${p.budgetMs}.plan.json`);
      const job: SolveJob = { file: p.inst.file, strategy: p.strategy, budgetMs: p.budgetMs, seed, planFile };
      const out = await runSolve(job, runner);
      const rec = toRecord(p, seed, out);
      results.runs.push(rec);
      done++;
      log(`[${done}/${planned.length}] ${describe(rec)}`);
      if (rec.planFile) unchecked.push(rec);
      else save();
      if (unchecked.length >= 100) flushChecks();
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, Math.max(1, planned.length)) }, worker));
  flushChecks();

  if (suites.includes('measure')) {
    results.measurements.push(...(await measurements(shared, cache, strategies, runner, log)));
    save();
  }
  results.finishedAt = new Date().toISOString();
  save();
  log(`wrote ${outFile}`);
  if (!values['no-report']) log(`wrote ${writeReport()}`);
  return 0;
}

function toRecord(p: PlannedRun, seed: number, o: SolveOutcome): RunRecord {
  const ref = o.reference ?? null;
  const known = ref?.optimum ?? ref?.upperBound ?? null;
  const complete = o.ok && o.scheduledTasks !== undefined && o.scheduledTasks === o.totalTasks;
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    suite: p.inst.suite,
    instance: p.inst.name,
    file: p.inst.file,
    strategy: p.strategy,
    kind: p.kind,
    budgetMs: p.budgetMs,
    seed,
    ok: o.ok,
    error: o.ok ? null : `${o.errorKind ? o.errorKind + ': ' : ''}${o.error ?? 'unknown error'}`,
    totalTasks: o.totalTasks ?? null,
    scheduledTasks: o.scheduledTasks ?? null,
    makespan: o.makespan ?? null,
    bound: o.bound ?? null,
    gapPct: o.ok && o.bound ? round((100 * (o.makespan! - o.bound)) / o.bound) : null,
    optimal: o.ok ? o.optimal === true : null,
    reference: ref,
    known,
    knownIsOptimum: ref?.optimum !== undefined,
    devPct: complete && known ? round((100 * (o.makespan! - known)) / known) : null,
    criticalPath: o.criticalPath ?? null,
    devCpPct: complete && o.criticalPath ? round((100 * (o.makespan! - o.criticalPath)) / o.criticalPath) : null,
    elapsedMs: o.elapsedMs ?? null,
    planElapsedMs: o.planElapsedMs ?? null,
    iterations: o.iterations ?? null,
    movesPerSecond: o.movesPerSecond ?? null,
    feasibleOurs: o.feasibleOurs ?? null,
    feasibleCheckPlan: null,
    checkPlanErrors: [],
    planFile: o.planFile ?? null,
    finishedAt: new Date().toISOString(),
  };
}

function describe(r: RunRecord): string {
  const head = `${r.suite} ${r.instance} ${r.strategy}${r.kind === 'ref' ? ' (ref)' : ''} ${r.budgetMs} ms:`;
  if (!r.ok) return `${head} ERROR ${r.error}`;
  const parts = [`${r.scheduledTasks}/${r.totalTasks} tasks`, `makespan ${r.makespan}`, `bound ${r.bound}`, `gap ${r.gapPct === null ? '–' : r.gapPct.toFixed(1) + '%'}`];
  if (r.known !== null) parts.push(`${r.knownIsOptimum ? 'opt' : 'best-known'} ${r.known} (${r.devPct?.toFixed(1)}%)`);
  if (r.optimal) parts.push('proven optimal');
  parts.push(`${r.elapsedMs} ms`);
  if (r.feasibleOurs === false) parts.push('INFEASIBLE (evaluator)');
  return `${head} ${parts.join(', ')}`;
}

async function measurements(shared: string, cache: string, strategies: string[], runner: RunnerOptions, log: (m: string) => void): Promise<Measurement[]> {
  const out: Measurement[] = [];
  const large = largeInstanceFile(cache);
  log('measuring loadInstance on the 10k-task instance (5 runs)');
  out.push(...measureLoad(large));
  if (!strategies.includes('ls')) {
    out.push({ name: 'ls moves/second', value: null, unit: 'moves/s', detail: 'not measured: ls not among the strategies run' });
    return out;
  }
  const targets = [
    { file: path.join(shared, 'instances', 'ephemeral-pc1-680.json'), budgetMs: 5000 },
    // The issue's yardstick is a 2,500-task instance: one where every job fits, and (when the ephemeral
    // suite has generated it into the cache) one where not every job does, where whole-job swaps of up
    // to 200 tasks are part of the moves.
    { file: path.join(shared, 'instances', 'ephemeral-pc2-2500.json'), budgetMs: 5000 },
    { file: path.join(cache, 'instances', 'ephemeral', 'ephemeral-pc1-2500-load1.3-mm160-s1.json'), budgetMs: 5000 },
    { file: path.join(shared, 'instances', 'psplib-j1201_1.json'), budgetMs: 5000 },
    { file: large, budgetMs: 10000 },
  ];
  for (const t of targets) {
    if (!existsSync(t.file)) continue;
    log(`measuring ls moves/second on ${path.basename(t.file)} (${t.budgetMs} ms)`);
    const o = await runSolve({ file: t.file, strategy: 'ls', budgetMs: t.budgetMs, seed: 1, planFile: path.join(cache, 'plans', 'measure', `${path.basename(t.file)}.ls.plan.json`) }, runner);
    // A first plan that meets the lower bound ends ls before any move: there is no rate to report.
    const noMoves = o.ok && o.iterations === 0;
    out.push({
      name: `ls moves/second on ${path.basename(t.file, '.json')}`,
      value: o.ok && !noMoves ? (o.movesPerSecond ?? null) : null,
      unit: 'moves/s',
      detail: !o.ok
        ? `ls failed: ${o.error}`
        : noMoves
          ? `no moves made: the first plan (${o.scheduledTasks}/${o.totalTasks} tasks, makespan ${o.makespan}) met the lower bound`
          : o.movesPerSecond == null
          ? `ls does not report stats.movesPerSecond (iterations ${o.iterations} in ${o.elapsedMs} ms)`
          : `budget ${t.budgetMs} ms, ${o.scheduledTasks}/${o.totalTasks} tasks, makespan ${o.makespan}, iterations ${o.iterations}`,
    });
  }
  return out;
}

if (require.main === module) runEntry(COMMAND, main);
