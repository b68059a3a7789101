/**
 * How cost grows with a data centre's size (issue 40): solve time to a fixed gap, memory and plan size at 1k, 10k
 * and 100k tasks on 100, 1,000 and 5,000 nodes, and the target run, 100,000 tasks on 1,000 nodes within 60 s,
 * on fresh seeds. Instances come from harness/scale-instance.ts (PC-2 replicated, each host under a Bitbrains
 * trace from its own offset, SWIM FB-2009 job sizes; ../shared/data read in place when present, synthetic load
 * and sizes otherwise, which the report says). Each solve runs in a process of its own (bench/scale/solve-one.ts)
 * so its peak memory is its own.
 *
 *   npm run bench:scale [-- options]     writes bench/results/scale-<date>.json, bench/SCALE.md's results and bench/scale-*.svg
 */
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { command, runEntry } from './lib/cli';
import { machineInfo, timestamp } from './lib/machine';
import { generatedLine, table, writeResultsSection } from './lib/markdown';
import { benchFile, sharedDir } from './lib/paths';
import { resultsFile, writeJson } from './lib/results';
import { median } from './lib/stats';
import { renderSvg } from '../src/charts/render';
import { ChartPoint, logLogSpec } from './scale/chart';
import type { ScaleCase, ScaleRun } from './scale/solve-one';

const COMMAND = command({
  name: 'bench:scale',
  usage: 'usage: npm run bench:scale -- [options]      (writes bench/results/scale-<date>.json, bench/SCALE.md and bench/scale-*.svg)',
  options: {
    seeds: { kind: 'integer', min: 0, default: 5, arg: 'N', help: 'seeds of the target run, 100k tasks on 1,000 nodes (default 5; 0: the grid only)' },
    'first-seed': { kind: 'integer', min: 0, default: 4001, arg: 'N', help: 'first seed (default 4001)' },
    'budget-ms': { kind: 'integer', min: 100, default: 60000, arg: 'MS', help: 'budget of every solve (default 60,000)' },
    gap: { kind: 'number', min: 0, default: 0.05, arg: 'G', help: 'the gap to the bound whose time is measured (default 0.05)' },
    strategy: { kind: 'string', default: 'ls', arg: 'NAME', help: 'strategy (default ls)' },
    tasks: { kind: 'string', default: '1000,10000,100000', arg: 'LIST', help: 'task counts of the growth grid (default 1000,10000,100000)' },
    nodes: { kind: 'string', default: '100,1000,5000', arg: 'LIST', help: 'node counts of the growth grid (default 100,1000,5000)' },
    'no-grid': { kind: 'flag', help: 'the target run only' },
    'no-replay': { kind: 'flag', help: "do not replay the target's plans against the next day's load" },
    'no-write': { kind: 'flag', help: 'print, write no file' },
    transfers: { kind: 'flag', help: 'data to move (HDFS chunk replicas, shuffle outputs), every fetch priced; prints, writes no file (SCALE.md holds the compute-only run)' },
  },
});

const TARGET = { tasks: 100_000, nodes: 1000 };

function runOne(c: ScaleCase): ScaleRun {
  const child = path.join(__dirname, 'scale', 'solve-one.js');
  const out = execFileSync(process.execPath, ['--max-old-space-size=4096', child, JSON.stringify(c)], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20, stdio: ['ignore', 'pipe', 'inherit'] });
  return JSON.parse(out.trim().split('\n').pop()!) as ScaleRun;
}

const s = (ms: number | null) => (ms === null ? '—' : (ms / 1000).toFixed(1));
const pctOf = (g: number | null) => (g === null ? '—' : `${(100 * g).toFixed(1)} %`);
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
const fmtTasks = (n: number) => (n >= 1000 ? `${n / 1000}k` : String(n));

/** Least-squares slope of log(y) on log(x): y grows as x^slope. */
function slope(points: [number, number][]): number | null {
  const p = points.filter(([x, y]) => x > 0 && y > 0).map(([x, y]) => [Math.log(x), Math.log(y)]);
  if (p.length < 2) return null;
  const mx = p.reduce((a, [x]) => a + x, 0) / p.length;
  const my = p.reduce((a, [, y]) => a + y, 0) / p.length;
  const sxx = p.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  return sxx === 0 ? null : p.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0) / sxx;
}

runEntry(COMMAND, async ({ values: v, argv }) => {
  const data = path.join(sharedDir(), 'data');
  const dataDir = existsSync(data) ? data : undefined;
  const base = { strategy: v.strategy, budgetMs: v['budget-ms'], gap: v.gap, dataDir, transfers: v.transfers };
  const started = new Date();
  const load = os.loadavg().map((x) => x.toFixed(2)).join(' ');
  const target: ScaleRun[] = [];
  for (let i = 0; i < v.seeds; i++) {
    const r = runOne({ ...base, seed: v['first-seed'] + i, ...TARGET, withReplay: !v['no-replay'] });
    console.error(`target seed ${r.seed}: makespan ${r.makespan} bound ${r.boundSlots} gap ${pctOf(r.finalGap)}, ${v.gap * 100} % at ${s(r.gapReachedMs)} s, ${r.peakRssMB} MB`);
    target.push(r);
  }
  const grid: ScaleRun[] = [];
  if (!v['no-grid'])
    for (const nodes of v.nodes.split(',').map(Number))
      for (const tasks of v.tasks.split(',').map(Number)) {
        const same = target.find((r) => r.tasks === tasks && r.nodes === nodes);
        const r = same ?? runOne({ ...base, seed: v['first-seed'], tasks, nodes });
        console.error(`grid ${tasks} x ${nodes}: makespan ${r.makespan} bound ${r.boundSlots}, first plan ${s(r.firstPlanMs)} s, gap ${v.gap * 100} % at ${s(r.gapReachedMs)} s, ${r.peakRssMB} MB`);
        grid.push(r);
      }

  const m = machineInfo();
  const md = report(target, grid, v.gap, v['budget-ms'], v.strategy, dataDir, generatedLine(`npm run bench:scale${argv.length ? ' -- ' + argv.join(' ') : ''}`, 'bench/scale.ts', m, started), load);
  if (v['no-write'] || v.transfers) {
    console.log(md);
    return 0;
  }
  const stamp = timestamp(started);
  writeJson(resultsFile(`scale-${stamp.slice(0, 8)}.json`), { date: started.toISOString(), machine: m, loadAtStart: load, options: { ...v }, target, grid });
  writeResultsSection(benchFile('SCALE.md'), md.replace('RESULTS_FILE', `bench/results/scale-${stamp.slice(0, 8)}.json`), 'results');
  if (grid.length) {
    const points = (measure: string, f: (r: ScaleRun) => number | null) =>
      grid.map((r): ChartPoint => ({ nodes: `${r.nodes} nodes`, measure, tasks: r.tasks, value: f(r) ?? 0 }));
    const time = [...points('first plan', (r) => (r.firstPlanMs === null ? null : r.firstPlanMs / 1000)), ...points(`${v.gap * 100} % gap`, (r) => (r.gapReachedMs === null ? null : r.gapReachedMs / 1000))];
    writeFileSync(benchFile('scale-time.svg'), await renderSvg(logLogSpec(`Time to a first plan and to a ${v.gap * 100} % gap (${v.strategy})`, 'seconds', time)));
    const memory = [...points('peak memory', (r) => r.peakRssMB), ...points('plan size', (r) => r.planBytes / 2 ** 20)];
    writeFileSync(benchFile('scale-memory.svg'), await renderSvg(logLogSpec('Peak memory of a solve, and plan size', 'MB', memory)));
  }
  return 0;
});

function report(target: ScaleRun[], grid: ScaleRun[], gap: number, budgetMs: number, strategy: string, dataDir: string | undefined, generated: string, load: string): string {
  const out: string[] = [`Generated by ${generated} Load average at start: ${load}. Results: RESULTS_FILE.`, ''];
  out.push(
    dataDir
      ? `Instances: harness/scale-instance.ts, PC-2's 27 hosts replicated, each host under a Bitbrains VM trace (${dataDir}) from its own offset, SWIM FB-2009 job sizes, load 0.25, 480 slots of 180 s.`
      : 'Instances: harness/scale-instance.ts with **synthetic** load and job sizes (../shared/data is absent here).',
    '',
  );
  if (target.length) {
    const met = target.filter((r) => r.finalGap !== null && r.finalGap <= gap + 1e-9 && r.peakRssMB < 2048).length;
    out.push(`### Target: ${fmtTasks(TARGET.tasks)} tasks on ${TARGET.nodes} nodes, \`${strategy}\`, ${budgetMs / 1000} s`, '');
    out.push(`Gap <= ${gap * 100} % to the plan's own bound within the budget and memory under 2 GB: **${met} of ${target.length} seeds**.`, '');
    out.push(
      ...table(
        ['seed', 'jobs', 'bound', 'class packing', 'mixed packing', 'first plan (s)', 'makespan', 'gap', `${gap * 100} % reached (s)`, 'list decodes', 'peak MB', 'bound (s)', 'plan MB'],
        target.map((r) => [r.seed, r.jobs, r.boundSlots, r.bounds.classPacking ?? '—', r.bounds.mixedPacking ?? '—', s(r.firstPlanMs), r.makespan, pctOf(r.finalGap), s(r.gapReachedMs), r.listDecodes ?? '—', r.peakRssMB, s(r.boundMs), mb(r.planBytes)]),
      ),
      '',
    );
    const replays = target.filter((r) => r.replay);
    if (replays.length) {
      out.push(`Each target plan replayed (src/engine/simulation.ts simulatePlan) against the next day's load of the same hosts (the instance was its forecast), Salamander's QoS controller checking every node every ${replays[0].replay!.qosPeriodSeconds} s:`, '');
      out.push(
        ...table(
          ['seed', 'replay wall (s)', 'events', 'planned makespan (h)', 'realised (h)', 'relaunched tasks', 'unfinished jobs'],
          replays.map((r) => [r.seed, s(r.replay!.wallMs), r.replay!.events, (r.replay!.plannedSeconds / 3600).toFixed(2), (r.replay!.realisedSeconds / 3600).toFixed(2), r.replay!.relaunches, r.replay!.unfinishedJobs]),
        ),
        '',
      );
    }
    const gaps = target.map((r) => r.finalGap).filter((g): g is number => g !== null);
    out.push(`Gap at the end: median ${pctOf(median(gaps))}, min ${pctOf(Math.min(...gaps))}, max ${pctOf(Math.max(...gaps))}; peak memory median ${median(target.map((r) => r.peakRssMB))} MB, max ${Math.max(...target.map((r) => r.peakRssMB))} MB.`, '');
  }
  if (grid.length) {
    out.push(`### Growth (seed ${grid[0].seed}, one solve per point, \`${strategy}\`, ${budgetMs / 1000} s)`, '');
    out.push(
      ...table(
        ['tasks', 'nodes', 'jobs', 'instance MB', 'load (s)', 'bound (s)', 'first plan (s)', `${gap * 100} % reached (s)`, 'makespan / bound', 'gap', 'moves/s', 'list decodes', 'peak MB', 'plan MB'],
        grid.map((r) => [fmtTasks(r.tasks), r.nodes, r.jobs, mb(r.instanceBytes), s(r.loadMs), s(r.boundMs), s(r.firstPlanMs), s(r.gapReachedMs), `${r.makespan} / ${r.boundSlots}`, pctOf(r.finalGap), r.movesPerSecond ?? '—', r.listDecodes ?? '—', r.peakRssMB, mb(r.planBytes)]),
      ),
      '',
    );
    const rate = (f: (r: ScaleRun) => number | null, by: 'tasks' | 'nodes', fixed: number) => {
      const pts = grid.filter((r) => (by === 'tasks' ? r.nodes === fixed : r.tasks === fixed)).map((r): [number, number] => [by === 'tasks' ? r.tasks : r.nodes, f(r) ?? 0]);
      const k = slope(pts);
      return k === null ? '—' : k.toFixed(2);
    };
    const nodesFixed = TARGET.nodes;
    const tasksFixed = TARGET.tasks;
    out.push('Growth as a power of size (least-squares slope on log-log axes; 1 = linear):', '');
    out.push(
      ...table(
        ['measure', `with tasks (at ${nodesFixed} nodes)`, `with nodes (at ${fmtTasks(tasksFixed)} tasks)`],
        [
          ['time to a first plan', rate((r) => r.firstPlanMs, 'tasks', nodesFixed), rate((r) => r.firstPlanMs, 'nodes', tasksFixed)],
          ['bound', rate((r) => r.boundMs, 'tasks', nodesFixed), rate((r) => r.boundMs, 'nodes', tasksFixed)],
          ['peak memory', rate((r) => r.peakRssMB, 'tasks', nodesFixed), rate((r) => r.peakRssMB, 'nodes', tasksFixed)],
          ['plan size', rate((r) => r.planBytes, 'tasks', nodesFixed), rate((r) => r.planBytes, 'nodes', tasksFixed)],
        ],
      ),
      '',
      '![time](scale-time.svg) ![memory](scale-memory.svg)',
    );
  }
  return out.join('\n');
}
