/**
 * Revenue benchmark (issue 4): the two-stage paper's scheduler `tps` against its baselines `fifo` and `edf`,
 * and against `ls` and `exact` with the revenue objective, reporting PR (revenue, Eq. 11), JCR (Eq. 10),
 * PRU (Eq. 9), on-time jobs and run time per strategy and job-set size.
 *
 * Sets (each size x seed is one instance; every plan is checked by the evaluator):
 *   gen       `../shared/tools/gen-instance.py tps --jobs N --seed S` (the issue's generator; skipped without ../shared)
 *   paper     harness/tps-instance.ts: the same platform and job distribution, with deadlines in slots
 *             (see the note in REVENUE.md on why the two differ)
 *   ephemeral `gen-instance.py ephemeral --dc pc1|pc2|univ --tasks 680 --load 1.3 --max-maps 160 --deadlines 0.5`
 *             (real utilisation, deadlines on half the jobs; skipped without ../shared)
 *   small     paper instances shrunk to 10-14 jobs of ~1/25 the tasks on 2-3 nodes, where `exact` proves the optimum
 *
 *   npm run build && node dist/bench/revenue.js [--sets gen,paper,ephemeral,small] [--budget-ms 5000] [--seeds 3]
 *   node dist/bench/revenue.js --report-only bench/results/revenue-<date>.json     (re-render REVENUE.md only)
 *
 * Writes bench/results/revenue-<date>.json (format fallow.bench-revenue/v1; report.js ignores it) and bench/REVENUE.md.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { evaluatePlan } from '../src/engine/evaluate/evaluate';
import { loadInstance } from '../src/engine/model/model';
import { InstanceDoc } from '../src/engine/model/types';
import { solve } from '../src/engine/solve';
import { tpsPaperInstance } from '../harness/tps-instance';
import { machineInfo, timestamp } from './lib/machine';
import { mean } from './lib/stats';
import { command, EntryArgs, nothingToRun, runEntry } from './lib/cli';
import { benchFile, sharedDir } from './lib/paths';
import { resultsFile, writeJson } from './lib/results';
import { renderRevenueReport, RevenueRow, RevenueResults, REVENUE_RESULTS_FORMAT } from './revenue/report';

const SIZES = [20, 40, 80, 120, 200];
const HEURISTICS = ['tps', 'edf', 'fifo'];

interface Case {
  set: string;
  size: number;
  seed: number;
  instance: InstanceDoc;
}

const COMMAND = command({
  name: 'bench:revenue',
  usage: 'usage: node dist/bench/revenue.js [options]     (or npm run bench:revenue -- [options])',
  options: {
    sets: { kind: 'string', default: 'gen,paper,ephemeral,small', arg: 'S[,S]', help: 'gen | paper | ephemeral | small   (default all four)' },
    'budget-ms': { kind: 'number', above: 0, default: 5000, arg: 'N', help: 'budget of every heuristic and ls solve (default 5000)' },
    'exact-budget-ms': { kind: 'number', above: 0, default: 20000, arg: 'N', help: "exact's budget on the small sets (default 20000)" },
    seeds: { kind: 'integer', default: 3, arg: 'N', help: 'seeds per set and size (default 3)' },
    'report-only': { kind: 'string', arg: 'FILE', help: 'only re-render bench/REVENUE.md from this results file' },
  },
});

async function main({ values }: EntryArgs<typeof COMMAND.options>): Promise<number> {
  if (values['report-only']) {
    // Re-render REVENUE.md from a results file (after a change to the report's text).
    const results = JSON.parse(readFileSync(values['report-only'], 'utf8')) as RevenueResults;
    writeFileSync(benchFile('REVENUE.md'), renderRevenueReport(results, mean));
    return 0;
  }
  const budget = values['budget-ms'];
  const exactBudget = values['exact-budget-ms'];
  const seeds = Array.from({ length: values.seeds }, (_, i) => i + 1);
  const sets = values.sets.split(',');
  const shared = sharedDir();
  const skipped: string[] = [];
  const cases: Case[] = [];
  const haveShared = existsSync(path.join(shared, 'tools', 'gen-instance.py'));
  for (const set of sets) {
    if ((set === 'gen' || set === 'ephemeral') && !haveShared) {
      skipped.push(`${set}: ${shared}/tools/gen-instance.py not found (../shared absent)`);
      continue;
    }
    if (set === 'gen')
      for (const size of SIZES) for (const seed of seeds) cases.push({ set, size, seed, instance: generate(shared, ['tps', '--jobs', String(size), '--seed', String(seed)]) });
    if (set === 'paper') for (const size of SIZES) for (const seed of seeds) cases.push({ set, size, seed, instance: tpsPaperInstance({ jobs: size, seed }) });
    if (set === 'ephemeral')
      for (const dc of ['pc1', 'pc2', 'univ']) {
        const inst = generate(shared, ['ephemeral', '--dc', dc, '--tasks', '680', '--load', '1.3', '--max-maps', '160', '--deadlines', '0.5', '--seed', '1']);
        cases.push({ set: `ephemeral-${dc}`, size: inst.jobs.length, seed: 1, instance: inst });
      }
    if (set === 'small')
      for (const [size, nodes] of [
        [10, 2],
        [14, 3],
      ])
        for (const seed of seeds) cases.push({ set, size, seed, instance: shrink(tpsPaperInstance({ jobs: size, seed: 100 + seed }), nodes) });
  }

  if (cases.length === 0) return nothingToRun('bench:revenue', `no case in --sets ${sets.join(',')}${skipped.length ? ` (skipped: ${skipped.join('; ')})` : ''}`);
  const rows: RevenueRow[] = [];
  for (const c of cases) {
    const model = loadInstance(c.instance);
    const strategies = [...HEURISTICS, 'ls', ...(c.set === 'small' ? ['exact'] : [])];
    for (const strategy of strategies) {
      const b = strategy === 'exact' ? exactBudget : budget;
      const started = Date.now();
      const plan = await solve(model, { strategy, objective: 'revenue', timeBudgetMs: b, seed: 1 });
      const wallMs = Date.now() - started;
      const e = evaluatePlan(model, plan);
      if (!e.ok) throw new Error(`${strategy} on ${c.set}/${c.size}/${c.seed}: infeasible plan: ${e.violations[0]}`);
      rows.push({
        set: c.set,
        size: c.size,
        seed: c.seed,
        instance: c.instance.name,
        tasks: model.nTasks,
        strategy,
        budgetMs: b,
        wallMs,
        revenue: e.kpis.revenue,
        revenueBound: plan.bound?.revenue ?? null,
        optimal: plan.optimal === true,
        onTimeJobs: e.kpis.jobs.filter((j) => j.onTime === true).length,
        jobs: model.jobs.length,
        jcr: e.kpis.jcr,
        pru: e.kpis.pru,
      });
      process.stderr.write(`${c.set} n=${c.size} s=${c.seed} ${strategy}: PR ${e.kpis.revenue} JCR ${e.kpis.jcr.toFixed(3)} PRU ${e.kpis.pru.toFixed(3)} ${wallMs} ms\n`);
    }
  }
  const results: RevenueResults = { format: REVENUE_RESULTS_FORMAT, createdAt: new Date().toISOString(), machine: machineInfo(), budgetMs: budget, exactBudgetMs: exactBudget, skipped, rows };
  const file = writeJson(resultsFile(`revenue-${timestamp()}.json`), results);
  writeFileSync(benchFile('REVENUE.md'), renderRevenueReport(results, mean));
  process.stderr.write(`wrote ${file} and bench/REVENUE.md\n`);
  return 0;
}

function generate(shared: string, args: string[]): InstanceDoc {
  const r = spawnSync('python3', [path.join(shared, 'tools', 'gen-instance.py'), ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`gen-instance.py ${args.join(' ')} failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as InstanceDoc;
}

/** A paper instance made small enough for the time-indexed MILP: ~1/25 of the tasks on a few nodes, deadlines rescaled. */
function shrink(inst: InstanceDoc, nodes: number): InstanceDoc {
  const containers = nodes * 4;
  const slot = inst.horizon.slotSeconds;
  const jobs = inst.jobs.map((j, q) => {
    const stages = j.stages.map((s) => ({ ...s, tasks: Math.max(1, Math.floor(s.tasks / 25)) }));
    const alone = stages.reduce((t, s) => t + Math.ceil(s.tasks / containers) * Math.ceil((s.durationSeconds ?? slot) / slot), 0);
    const release = (q * 2) % 12;
    // The same stretch of deadline over length alone as the full instance's job had.
    const stretch = ((j.deadlineSlot ?? 0) - (j.releaseSlot ?? 0)) / Math.max(1, fullAlone(inst, j.stages));
    return { ...j, stages, releaseSlot: release, deadlineSlot: release + Math.max(1, Math.round(alone * Math.min(2.5, 0.7 * stretch))) };
  });
  const last = Math.max(...jobs.map((j) => j.deadlineSlot));
  return { ...inst, name: `${inst.name}-small${nodes}`, nodes: inst.nodes.slice(0, nodes), jobs, horizon: { ...inst.horizon, slots: last + 20 } };
}

function fullAlone(inst: InstanceDoc, stages: InstanceDoc['jobs'][number]['stages']): number {
  const containers = inst.nodes.length * 4;
  const slot = inst.horizon.slotSeconds;
  return stages.reduce((t, s) => t + Math.ceil(s.tasks / containers) * Math.ceil((s.durationSeconds ?? slot) / slot), 0);
}

if (require.main === module) runEntry(COMMAND, main);
