/**
 * bench/RESULTS.md from the results files bench/results/*.json (or the files given); the entry point is
 * bench/report.ts (`node dist/bench/report.js`, `npm run bench -- --report-only`).
 * Runs of the same (suite, instance, strategy, kind, budget, seed) in several files: the latest wins.
 * Every number printed comes from a recorded run; nothing is estimated.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { betterThan, defaultBudgetMs, Measurement, RESULTS_FORMAT, ResultsFile, RunRecord, SuiteName } from './types';
import { mean, median, pct } from '../lib/stats';
import { repoRoot, resultsDir, sharedDir } from '../lib/paths';
import { EPHEMERAL_SPECS, J120_DEFAULT_SAMPLE } from './suites';

const STRATEGY_ORDER = ['rffd', 'ls', 'ga', 'exact', 'auto'];
/** The issue's comparison: "ls in 10 s vs the best of any strategy in 60 s". */
const BEST_MAX_BUDGET_MS = 60000;
const ACOBP_TARGET = 145;

export interface LoadedResults {
  files: { file: string; data: ResultsFile }[];
  runs: RunRecord[];
}

export function loadResults(files?: string[]): LoadedResults {
  const dir = resultsDir();
  const list =
    files && files.length
      ? files.map((f) => path.resolve(f))
      : (() => {
          try {
            return readdirSync(dir)
              .filter((f) => f.endsWith('.json'))
              .sort()
              .map((f) => path.join(dir, f));
          } catch {
            return [];
          }
        })();
  const loaded: { file: string; data: ResultsFile }[] = [];
  for (const f of list) {
    try {
      const data = JSON.parse(readFileSync(f, 'utf8')) as ResultsFile;
      if (data.format === RESULTS_FORMAT && Array.isArray(data.runs)) loaded.push({ file: f, data });
    } catch {
      /* not a results file */
    }
  }
  const byKey = new Map<string, RunRecord>();
  for (const { data } of loaded)
    for (const r of data.runs) {
      const key = [r.suite, r.instance, r.strategy, r.kind, r.budgetMs, r.seed].join('|');
      const old = byKey.get(key);
      if (!old || old.finishedAt <= r.finishedAt) byKey.set(key, r);
    }
  return { files: loaded, runs: [...byKey.values()] };
}

function strategyRank(s: string): number {
  const i = STRATEGY_ORDER.indexOf(s);
  return i < 0 ? STRATEGY_ORDER.length : i;
}

const f1 = (x: number | null | undefined, d = 2) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(d));
const fint = (x: number | null | undefined) => (x === null || x === undefined ? '–' : String(Math.round(x)));
const secs = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`);

/** Feasible by both checkers; null when check-plan.py never saw the plan. */
function feasibleBoth(r: RunRecord): boolean | null {
  if (!r.ok) return false;
  if (r.feasibleOurs === false || r.feasibleCheckPlan === false) return false;
  if (r.feasibleCheckPlan === null) return null;
  return r.feasibleOurs === true;
}

function usable(r: RunRecord): boolean {
  return r.ok && r.feasibleOurs !== false && r.feasibleCheckPlan !== false && r.scheduledTasks !== null;
}

interface Group {
  suite: SuiteName;
  strategy: string;
  kind: 'main' | 'ref';
  budgetMs: number;
  runs: RunRecord[];
}

function groups(runs: RunRecord[], suite: SuiteName): Group[] {
  const m = new Map<string, Group>();
  for (const r of runs) {
    if (r.suite !== suite) continue;
    const key = `${r.strategy}|${r.kind}|${r.budgetMs}`;
    if (!m.has(key)) m.set(key, { suite, strategy: r.strategy, kind: r.kind, budgetMs: r.budgetMs, runs: [] });
    m.get(key)!.runs.push(r);
  }
  return [...m.values()].sort(
    (a, b) => (a.kind === b.kind ? 0 : a.kind === 'main' ? -1 : 1) || strategyRank(a.strategy) - strategyRank(b.strategy) || a.strategy.localeCompare(b.strategy) || a.budgetMs - b.budgetMs,
  );
}

interface GroupStats {
  n: number;
  errors: number;
  feasible: number;
  unchecked: number;
  meanGap: number | null;
  medianGap: number | null;
  meanDev: number | null;
  atKnown: number;
  withKnown: number;
  proven: number;
  meanDevCp: number | null;
  medianTime: number | null;
  maxTime: number | null;
  /** Runs whose wall time exceeded the budget by more than 10%. */
  overBudget: number;
  medianMoves: number | null;
  complete: number;
}

function stats(g: Group): GroupStats {
  const ok = g.runs.filter(usable);
  const gaps = ok.map((r) => r.gapPct).filter((x): x is number => x !== null);
  const devs = ok.map((r) => r.devPct).filter((x): x is number => x !== null);
  const cps = ok.map((r) => r.devCpPct).filter((x): x is number => x !== null);
  const times = g.runs.map((r) => r.elapsedMs).filter((x): x is number => x !== null);
  const moves = ok.map((r) => r.movesPerSecond).filter((x): x is number => x !== null);
  const fb = g.runs.map(feasibleBoth);
  return {
    n: g.runs.length,
    errors: g.runs.filter((r) => !r.ok).length,
    feasible: fb.filter((x) => x === true).length,
    unchecked: fb.filter((x) => x === null).length,
    meanGap: mean(gaps),
    medianGap: median(gaps),
    meanDev: mean(devs),
    atKnown: ok.filter((r) => r.known !== null && r.devPct !== null && r.makespan! <= r.known).length,
    withKnown: ok.filter((r) => r.known !== null && r.devPct !== null).length,
    proven: ok.filter((r) => r.optimal === true).length,
    meanDevCp: mean(cps),
    medianTime: median(times),
    maxTime: times.length ? Math.max(...times) : null,
    overBudget: g.runs.filter((r) => r.elapsedMs !== null && r.elapsedMs > 1.1 * r.budgetMs).length,
    medianMoves: median(moves),
    complete: ok.filter((r) => r.scheduledTasks === r.totalTasks).length,
  };
}

interface TargetRow {
  target: string;
  measured: string;
  status: string;
}

export function renderReport(loaded: LoadedResults): string {
  const { files, runs } = loaded;
  const out: string[] = [];
  const w = (s = '') => out.push(s);
  w('# Fallow benchmark results');
  w();
  w('Generated by `node dist/bench/report.js` (or `npm run bench -- --report-only`) from the results files in');
  w('`bench/results/`; every figure below comes from a run recorded there. Do not edit by hand: re-run the');
  w('benchmark or the report instead. How to run: `bench/README.md`.');
  w();
  w(`Report generated: ${new Date().toISOString()}`);
  w();
  if (files.length === 0) {
    w('No results files found: nothing has been run yet.');
    return out.join('\n') + '\n';
  }

  w('## Runs and machines');
  w();
  w('| results file | started | finished | machine | suites | strategies | budgets | runs |');
  w('|---|---|---|---|---|---|---|---|');
  for (const { file, data } of files) {
    const m = data.machine;
    const o = data.options as Record<string, unknown>;
    const sel = [o.limit != null ? `limit ${o.limit}` : '', o.sample != null ? `sample ${o.sample}` : '', o.filter ? `filter ${(o.filter as string[]).join(',')}` : '']
      .filter(Boolean)
      .join(', ');
    w(
      `| ${path.basename(file)} | ${data.startedAt.slice(0, 16).replace('T', ' ')} | ${data.finishedAt ? data.finishedAt.slice(0, 16).replace('T', ' ') : 'interrupted'} | ` +
        `${m.cpu}, ${m.cores} cores, ${m.memGB} GB, Node ${m.node}, ${m.os} | ${(o.suites as string[]).join(', ')}${sel ? ` (${sel})` : ''} | ` +
        `${(o.strategies as string[]).join(', ')} | ${o.budgetMs === 'defaults' ? 'defaults' : `--budget-ms ${o.budgetMs}`}${o.refBudgetMs ? `, reference runs ${secs(Number(o.refBudgetMs))}` : (o.suites as string[]).some((x) => x === 'shared' || x === 'ephemeral') ? ', no reference runs' : ''} | ${data.runs.length} |`,
    );
  }
  w();
  const registered = new Set<string>();
  for (const { data } of files) for (const s of data.strategies ?? []) registered.add(s);
  w(`Strategies registered at the time of the runs: ${[...registered].join(', ') || '–'}.`);
  w('Timings are wall-clock on a shared 2-core machine (other work ran in parallel), so they are noisy.');
  w();

  // ---------- coverage ----------
  w('## Coverage compared with the full benchmark');
  w();
  w('| suite | full set | instances run | strategies run | budgets run (default) | reference runs at 60 s |');
  w('|---|---|---|---|---|---|');
  for (const suite of ['j30', 'j120', 'shared', 'ephemeral'] as SuiteName[]) {
    const rs = runs.filter((r) => r.suite === suite);
    const full = fullSetSize(suite);
    if (rs.length === 0) {
      w(`| ${suite} | ${full} | 0 (not run) | – | – | – |`);
      continue;
    }
    const insts = new Set(rs.map((r) => r.instance));
    const strategies = [...new Set(rs.map((r) => r.strategy))].sort((a, b) => strategyRank(a) - strategyRank(b));
    const budgets = strategies.map((st) => {
      const b = [...new Set(rs.filter((r) => r.strategy === st && r.kind === 'main').map((r) => r.budgetMs))].map(secs).join('/');
      return `${st} ${b} (${secs(defaultBudgetMs(suite, st))})`;
    });
    const refRuns = rs.filter((r) => r.kind === 'ref');
    const refCell =
      suite === 'shared' || suite === 'ephemeral'
        ? `${refRuns.length} (${[...new Set(refRuns.map((r) => r.strategy))].join(', ') || 'none'} on ${new Set(refRuns.map((r) => r.instance)).size} instances)`
        : 'n/a';
    w(`| ${suite} | ${full} | ${insts.size} | ${strategies.join(', ')} | ${budgets.join('; ')} | ${refCell} |`);
  }
  w();

  // ---------- targets ----------
  const targets: TargetRow[] = [];
  const allGroups = (['j30', 'j120', 'shared', 'ephemeral'] as SuiteName[]).flatMap((s) => groups(runs, s));
  {
    const n = runs.length;
    const fb = runs.map(feasibleBoth);
    const feas = fb.filter((x) => x === true).length;
    const unchecked = fb.filter((x) => x === null).length;
    const errors = runs.filter((r) => !r.ok).length;
    targets.push({
      target: '100% of plans feasible (our evaluator and check-plan.py)',
      measured: `${feas}/${n} (${f1(pct(feas, n), 1)}%)${errors ? `; ${errors} runs ended in an error` : ''}${unchecked ? `; ${unchecked} not checked by check-plan.py` : ''}`,
      status: n === 0 ? 'not run' : feas === n ? 'met' : 'not met',
    });
  }
  const find = (suite: SuiteName, strategy: string, kind: 'main' | 'ref' = 'main') => allGroups.filter((g) => g.suite === suite && g.strategy === strategy && g.kind === kind);
  const budgetNote = (g: Group, want: number) => (g.budgetMs === want ? '' : ` (ran at ${secs(g.budgetMs)}, target is at ${secs(want)})`);
  {
    const gs = find('j30', 'exact');
    if (gs.length === 0) targets.push({ target: 'j30: exact proves the optimum on >= 95% within 10 s', measured: 'exact not run on j30', status: 'not run' });
    for (const g of gs) {
      const s = stats(g);
      targets.push({
        target: 'j30: exact proves the optimum on >= 95% within 10 s',
        measured: `${s.proven}/${s.n} proven (${f1(pct(s.proven, s.n), 1)}%)${budgetNote(g, 10000)}`,
        status: pct(s.proven, s.n) >= 95 ? 'met' : 'not met',
      });
    }
  }
  {
    const gs = find('j30', 'ls');
    if (gs.length === 0) targets.push({ target: 'j30: ls <= 0.5% above the optimum at 1 s (mean)', measured: 'ls not run on j30', status: 'not run' });
    for (const g of gs) {
      const s = stats(g);
      targets.push({
        target: 'j30: ls <= 0.5% above the optimum at 1 s (mean)',
        measured: `${f1(s.meanDev)}% over ${s.n} instances${budgetNote(g, 1000)}`,
        status: s.meanDev === null ? 'not run' : s.meanDev <= 0.5 ? 'met' : 'not met',
      });
    }
  }
  {
    const gs = find('j120', 'ls');
    if (gs.length === 0) targets.push({ target: 'j120: ls <= 35% above the critical-path bound at 5 s (mean)', measured: 'ls not run on j120', status: 'not run' });
    for (const g of gs) {
      const s = stats(g);
      targets.push({
        target: 'j120: ls <= 35% above the critical-path bound at 5 s (mean)',
        measured: `${f1(s.meanDevCp)}% over ${s.n} instances${budgetNote(g, 5000)}`,
        status: s.meanDevCp === null ? 'not run' : s.meanDevCp <= 35 ? 'met' : 'not met',
      });
    }
  }
  const eph = bestComparison(runs, 'ephemeral');
  for (const [strategy, tol] of [
    ['ls', 1],
    ['ga', 5],
  ] as const) {
    const rows = eph.filter((e) => e.cells.has(strategy));
    const within = rows.filter((e) => withinBest(e.cells.get(strategy)!, e.best, tol)).length;
    targets.push({
      target: `ephemeral: ${strategy} (10 s) within ${tol}% of the best makespan of any strategy (<= 60 s) with as many tasks`,
      measured: rows.length ? `${within}/${rows.length} instances; ${describeBudgets(rows, strategy)}` : `${strategy} not run on ephemeral`,
      status: rows.length === 0 ? 'not run' : within === rows.length ? 'met' : 'not met',
    });
  }
  {
    const withLs = eph.filter((e) => e.cells.has('ls'));
    const rows = withLs.filter((e) => e.cells.get('ls')!.gapPct !== null);
    const noGap = withLs.length - rows.length;
    const under = rows.filter((e) => e.cells.get('ls')!.gapPct! < 3).length;
    const gaps = rows.map((e) => e.cells.get('ls')!.gapPct!);
    targets.push({
      target: 'ephemeral: ls gap to the lower bound < 3%',
      measured: rows.length
        ? `${under}/${rows.length} instances (ls gaps ${f1(Math.min(...gaps), 1)}..${f1(Math.max(...gaps), 1)}%)` +
          (noGap ? `; ${noGap} instance(s) without a gap (nothing scheduled or an error) left out` : '')
        : 'ls not run on ephemeral',
      status: rows.length === 0 ? 'not run' : under === rows.length ? 'met' : 'not met',
    });
  }
  {
    const ac = runs.filter((r) => r.suite === 'shared' && r.instance === 'acobp-paper' && r.kind === 'main' && usable(r));
    const lim = ACOBP_TARGET * 1.03;
    for (const r of ac.sort((a, b) => strategyRank(a.strategy) - strategyRank(b.strategy)))
      targets.push({
        target: `acobp-paper.json: makespan within 3% of ${ACOBP_TARGET} (<= ${lim.toFixed(2)})`,
        measured: `${r.strategy} at ${secs(r.budgetMs)}: ${r.makespan} (${f1((100 * (r.makespan! - ACOBP_TARGET)) / ACOBP_TARGET, 1)}% vs ${ACOBP_TARGET})`,
        status: r.makespan! <= lim ? 'met' : 'not met',
      });
    if (ac.length === 0) targets.push({ target: `acobp-paper.json: makespan within 3% of ${ACOBP_TARGET}`, measured: 'not run', status: 'not run' });
  }
  w('## Targets from the issue');
  w();
  w('| target | measured | status |');
  w('|---|---|---|');
  for (const t of targets) w(`| ${t.target} | ${t.measured} | **${t.status}** |`);
  w();

  // ---------- per suite ----------
  const suiteTitles: [SuiteName, string][] = [
    ['j30', 'PSPLIB j30 (known optimum for all 480)'],
    ['j120', 'PSPLIB j120 (best-known upper bounds; deviation measured against the critical-path bound)'],
    ['shared', 'Shared instances (../shared/instances)'],
    ['ephemeral', 'Generated ephemeral instances'],
  ];
  for (const [suite, title] of suiteTitles) {
    const gs = groups(runs, suite);
    w(`## ${title}`);
    w();
    if (gs.length === 0) {
      w('Not run.');
      w();
      continue;
    }
    const instances = new Set(runs.filter((r) => r.suite === suite).map((r) => r.instance));
    w(
      `${instances.size} instances. gap = (makespan - plan.bound) / plan.bound (mean / median over runs without error); feasible = accepted by our ` +
        'evaluator and by check-plan.py; time = wall time around solve() in the child process (process start and instance loading excluded).',
    );
    w();
    const psp = suite === 'j30' || suite === 'j120';
    const head = ['strategy', 'budget', 'runs', 'errors', 'feasible (both)', 'all tasks scheduled', 'mean gap %', 'median gap %'];
    if (suite === 'j30') head.push('mean dev. from optimum %', 'at optimum', 'proven optimal');
    if (suite === 'j120') head.push('mean dev. above critical path %', 'mean dev. from best-known %', 'at best-known', 'proven optimal');
    head.push('median / max time ms', 'over budget +10%', 'median moves/s');
    w(`| ${head.join(' | ')} |`);
    w(`|${head.map(() => '---').join('|')}|`);
    for (const g of gs) {
      const s = stats(g);
      const row = [
        `${g.strategy}${g.kind === 'ref' ? ' (ref)' : ''}`,
        secs(g.budgetMs),
        String(s.n),
        String(s.errors),
        `${s.feasible}/${s.n} (${f1(pct(s.feasible, s.n), 1)}%)${s.unchecked ? `, ${s.unchecked} unchecked` : ''}`,
        `${s.complete}/${s.n}`,
        f1(s.meanGap),
        f1(s.medianGap),
      ];
      if (suite === 'j30') row.push(f1(s.meanDev), `${s.atKnown}/${s.withKnown}`, `${s.proven}/${s.n} (${f1(pct(s.proven, s.n), 1)}%)`);
      if (suite === 'j120') row.push(f1(s.meanDevCp), f1(s.meanDev), `${s.atKnown}/${s.withKnown}`, `${s.proven}/${s.n}`);
      row.push(`${fint(s.medianTime)} / ${fint(s.maxTime)}`, String(s.overBudget), s.medianMoves === null ? '–' : fint(s.medianMoves));
      w(`| ${row.join(' | ')} |`);
    }
    w();
    if (!psp) {
      renderPerInstance(w, runs, suite);
    }
  }

  // ---------- measurements ----------
  w('## Measurements');
  w();
  const ms: { m: Measurement; when: string }[] = [];
  for (const { data } of files) for (const m of data.measurements ?? []) ms.push({ m, when: data.startedAt });
  if (ms.length === 0) w('Not run (`--suite measure`).');
  else {
    // latest of each name
    const latest = new Map<string, { m: Measurement; when: string }>();
    for (const x of ms) if (!latest.has(x.m.name) || latest.get(x.m.name)!.when <= x.when) latest.set(x.m.name, x);
    w('| measurement | value | unit | detail | samples |');
    w('|---|---|---|---|---|');
    for (const { m } of latest.values()) w(`| ${m.name} | ${m.value === null ? '–' : m.value} | ${m.unit} | ${m.detail} | ${m.samples ? m.samples.join(', ') : ''} |`);
  }
  w();
  const moves = runs.filter((r) => r.movesPerSecond !== null);
  if (moves.length) {
    w('Moves per second reported by strategies in the runs above (plan.stats.movesPerSecond), median per suite:');
    w();
    w('| suite | strategy | runs | median moves/s |');
    w('|---|---|---|---|');
    const by = new Map<string, number[]>();
    for (const r of moves) {
      const k = `${r.suite}|${r.strategy}`;
      if (!by.has(k)) by.set(k, []);
      by.get(k)!.push(r.movesPerSecond!);
    }
    for (const [k, v] of by) w(`| ${k.split('|')[0]} | ${k.split('|')[1]} | ${v.length} | ${fint(median(v))} |`);
    w();
  }

  // ---------- not run / errors ----------
  w('## Not run, skipped and errors');
  w();
  for (const row of [...bestComparison(runs, 'ephemeral'), ...bestComparison(runs, 'shared')]) {
    const all = [...row.cells.values()];
    if (all.length && all.every((r) => r.ok && r.scheduledTasks === 0) && all.some((r) => r.strategy === 'exact' && r.optimal))
      w(`- ${row.instance}: no strategy scheduled any task, and exact's plan (0 tasks) is proven optimal: no job fits in the window.`);
  }
  const ranSuites = new Set(runs.map((r) => r.suite));
  for (const s of ['j30', 'j120', 'shared', 'ephemeral'] as SuiteName[]) {
    if (!ranSuites.has(s)) w(`- suite ${s}: not run.`);
  }
  for (const s of ['j30', 'j120', 'shared', 'ephemeral'] as SuiteName[]) {
    if (!ranSuites.has(s)) continue;
    const ran = new Set(runs.filter((r) => r.suite === s).map((r) => r.strategy));
    const missing = [...registered].filter((x) => !ran.has(x));
    if (missing.length) w(`- suite ${s}: strategies registered but not run: ${missing.join(', ')}.`);
  }
  for (const { file, data } of files) for (const s of data.skipped ?? []) w(`- ${path.basename(file)}: skipped ${s}`);
  for (const { file, data } of files) for (const s of data.notes ?? []) w(`- ${path.basename(file)}: ${s}`);
  const errs = runs.filter((r) => !r.ok || r.feasibleOurs === false || r.feasibleCheckPlan === false);
  if (errs.length) {
    w();
    w(`${errs.length} runs failed or produced a plan a checker rejects:`);
    w();
    for (const r of errs.slice(0, 40))
      w(`- ${r.suite} ${r.instance} ${r.strategy} ${secs(r.budgetMs)}: ${r.error ?? ''}${r.feasibleCheckPlan === false ? ` check-plan.py: ${r.checkPlanErrors.slice(0, 2).join('; ')}` : ''}`);
    if (errs.length > 40) w(`- ... ${errs.length - 40} more in the results files`);
  }
  w();
  return out.join('\n') + '\n';
}

function fullSetSize(suite: SuiteName): string {
  if (suite === 'j30') return '480';
  if (suite === 'j120') return `${J120_DEFAULT_SAMPLE} (every 10th of 600)`;
  if (suite === 'ephemeral') return String(EPHEMERAL_SPECS.length);
  try {
    return String(readdirSync(path.join(sharedDir(), 'instances')).filter((f) => f.endsWith('.json')).length);
  } catch {
    return '?';
  }
}

interface BestRow {
  instance: string;
  totalTasks: number | null;
  cells: Map<string, RunRecord>;
  best: RunRecord | null;
}

/** Per instance: the main run of each strategy, and the best usable run of any kind with budget <= 60 s. */
function bestComparison(runs: RunRecord[], suite: SuiteName): BestRow[] {
  const byInst = new Map<string, RunRecord[]>();
  for (const r of runs) if (r.suite === suite) (byInst.get(r.instance) ?? byInst.set(r.instance, []).get(r.instance)!).push(r);
  const rows: BestRow[] = [];
  for (const [instance, rs] of byInst) {
    const cells = new Map<string, RunRecord>();
    for (const r of rs) {
      if (r.kind !== 'main') continue;
      const old = cells.get(r.strategy);
      if (!old || r.budgetMs < old.budgetMs) cells.set(r.strategy, r); // the shortest main budget
    }
    let best: RunRecord | null = null;
    for (const r of rs) if (usable(r) && r.budgetMs <= BEST_MAX_BUDGET_MS && (!best || betterThan(r, best))) best = r;
    rows.push({ instance, totalTasks: rs.find((r) => r.totalTasks !== null)?.totalTasks ?? null, cells, best });
  }
  return rows.sort((a, b) => (a.instance < b.instance ? -1 : 1));
}

function withinBest(r: RunRecord, best: RunRecord | null, tolPct: number): boolean {
  if (!best || !usable(r)) return false;
  return r.scheduledTasks! >= best.scheduledTasks! && r.makespan! <= best.makespan! * (1 + tolPct / 100);
}

function describeBudgets(rows: BestRow[], strategy: string): string {
  const b = new Set(rows.map((e) => e.cells.get(strategy)!.budgetMs));
  const best = new Set(rows.map((e) => (e.best ? `${e.best.budgetMs}` : '')).filter(Boolean));
  return `${strategy} at ${[...b].map(secs).join('/')}, best found at budgets up to ${[...best].map((x) => secs(Number(x))).join('/') || '–'}`;
}

function renderPerInstance(w: (s?: string) => void, runs: RunRecord[], suite: SuiteName): void {
  const rows = bestComparison(runs, suite);
  const strategies = [...new Set(rows.flatMap((r) => [...r.cells.keys()]))].sort((a, b) => strategyRank(a) - strategyRank(b) || a.localeCompare(b));
  w('Per instance: scheduled tasks / makespan (gap to bound %) of each strategy\'s main run; "best" is the best plan of any');
  w(`run on the instance with a budget <= ${secs(BEST_MAX_BUDGET_MS)} (main or reference), lexicographic (tasks, then makespan).`);
  w('When jobs are rejected the bound (and so the gap) holds only for the accepted jobs of that plan.');
  w();
  const head = ['instance', 'tasks', ...strategies.map((s) => `${s}`), 'best (strategy, budget)', 'ls vs best'];
  w(`| ${head.join(' | ')} |`);
  w(`|${head.map(() => '---').join('|')}|`);
  for (const row of rows) {
    const cells = strategies.map((s) => {
      const r = row.cells.get(s);
      if (!r) return '–';
      if (!r.ok) return `error (${secs(r.budgetMs)})`;
      const bad = feasibleBoth(r) === false ? ' INFEASIBLE' : '';
      return `${r.scheduledTasks} / ${r.makespan} (${f1(r.gapPct, 1)}%) @${secs(r.budgetMs)}${bad}`;
    });
    const b = row.best;
    const bestCell = b ? `${b.scheduledTasks} / ${b.makespan} (${b.strategy}${b.kind === 'ref' ? ' ref' : ''}, ${secs(b.budgetMs)})` : '–';
    const ls = row.cells.get('ls');
    let cmp = '–';
    if (ls && b && usable(ls)) {
      const dt = ls.scheduledTasks! - b.scheduledTasks!;
      const dm = (100 * (ls.makespan! - b.makespan!)) / Math.max(1, b.makespan!);
      cmp = dt < 0 ? `${-dt} tasks fewer` : `${dm >= 0 ? '+' : ''}${f1(dm, 1)}% makespan`;
    }
    w(`| ${row.instance} | ${row.totalTasks ?? '–'} | ${cells.join(' | ')} | ${bestCell} | ${cmp} |`);
  }
  w();
}

export function writeReport(files?: string[], outFile?: string): string {
  const target = outFile ?? path.join(repoRoot(), 'bench', 'RESULTS.md');
  writeFileSync(target, renderReport(loadResults(files)));
  return target;
}
