/**
 * How fast a running plan is re-planned at the size of a day's batch (issue 39: "a re-plan of a 10,000-task
 * schedule takes at most its budget (default 2 s) and finds a feasible plan within 1 s"), and how much it moves.
 *
 * Per seed: an ACO-BP-style instance (harness/acobp-instance.ts, 3 racks of 15 VM flavours, map output from a
 * tenth to all of the input, so transfers are priced) of about `--tasks` tasks is solved with ls (`--first-ms`);
 * once a third of its tasks have started they are frozen and it is re-planned with ls and the first plan as the
 * previous plan, within `--budget-ms` (2,000), three ways:
 *   - unchanged: nothing changed (how many tasks move);
 *   - node lost: the node with the most tasks still to start is taken back at nowSlot, what ran there killed;
 *   - no previous: the same node lost, re-planned without the hint (how many tasks a plain re-solve moves).
 * Reported: the re-plan's wall time (budget kept?), the time to its first feasible plan (the previous plan mended
 * around the frozen tasks: one decode, src/engine/replan/replan.ts decodeAround), moved tasks and makespans.
 *
 *   npm run bench:replan-speed [-- options]     writes bench/results/replan-speed-<date>.json and bench/REPLAN-SPEED.md
 */
import { writeFileSync } from 'node:fs';
import * as os from 'node:os';
import { performance } from 'node:perf_hooks';
import { acoBpInstance } from '../harness/acobp-instance';
import { freezeAt, nodeLost } from '../harness/freeze';
import { loadInstance, Model } from '../src/engine/model/model';
import type { PlanDoc } from '../src/engine/model/types';
import { countDisruption, previousOf } from '../src/engine/replan/previous';
import { decodeAround } from '../src/engine/replan/replan';
import { fromPlanDoc } from '../src/engine/schedule/plan-doc';
import { solve } from '../src/engine/solve';
import { command, runEntry } from './lib/cli';
import { machineInfo, timestamp } from './lib/machine';
import { runLine, table } from './lib/markdown';
import { benchFile } from './lib/paths';
import { resultsFile, writeJson } from './lib/results';
import { summarize } from './lib/stats';

const COMMAND = command({
  name: 'bench:replan-speed',
  usage: 'usage: npm run bench:replan-speed -- [options]      (writes bench/results/replan-speed-<date>.json and bench/REPLAN-SPEED.md)',
  options: {
    seeds: { kind: 'integer', min: 1, default: 5, arg: 'N', help: 'instances (default 5)' },
    'first-seed': { kind: 'integer', min: 0, default: 500, arg: 'N', help: 'first instance seed (default 500)' },
    tasks: { kind: 'integer', min: 100, default: 10000, arg: 'N', help: 'about this many tasks per instance (default 10,000)' },
    'first-ms': { kind: 'integer', min: 100, default: 10000, arg: 'MS', help: "the first plan's ls budget (default 10,000)" },
    'budget-ms': { kind: 'integer', min: 100, default: 2000, arg: 'MS', help: "each re-plan's budget (default 2,000)" },
    note: { kind: 'strings', arg: 'TEXT', help: 'a remark stored in the results and printed in the report (repeatable)' },
  },
});

/** Tasks of acoBpInstance at scale 1 (measured: 6,093); the scale is set from it. */
const TASKS_AT_SCALE_1 = 6093;

interface Run {
  ms: number;
  firstFeasibleMs: number;
  moved: number;
  kept: number;
  open: number;
  makespan: number;
  scheduled: number;
  chosen: string;
}

async function replan(model: Model, against: PlanDoc, previous: PlanDoc | undefined, budgetMs: number, seed: number): Promise<Run> {
  // The first feasible plan a re-plan has: the previous plan mended around the frozen tasks (one decode).
  const f0 = performance.now();
  if (previous) {
    const hint = previousOf(model, previous);
    decodeAround(model, hint.order, null, hint);
  }
  const firstFeasibleMs = previous ? performance.now() - f0 : NaN;
  const t0 = performance.now();
  const plan = await solve(model, { strategy: 'ls', timeBudgetMs: budgetMs, seed, previous });
  const ms = performance.now() - t0;
  const r = plan.stats!.replan as { frozenTasks: number; chosen: string };
  const d = countDisruption(model, fromPlanDoc(model, plan), previousOf(model, against));
  return { ms, firstFeasibleMs, moved: d.movedTasks, kept: d.keptTasks, open: model.nTasks - r.frozenTasks, makespan: plan.objective.makespanSlots, scheduled: plan.objective.scheduledTasks, chosen: r.chosen };
}

runEntry(COMMAND, async ({ values: v, argv }) => {
  const loadAtStart = os.loadavg().map((x) => Math.round(x * 100) / 100);
  const rows: { seed: number; tasks: number; firstMakespan: number; nowSlot: number; lostNode: string; unchanged: Run; lost: Run; lostNoPrevious: Run }[] = [];
  for (let seed = v['first-seed']; seed < v['first-seed'] + v.seeds; seed++) {
    const base = acoBpInstance({ seed, scale: v.tasks / TASKS_AT_SCALE_1, outputShare: [0.1, 1], slots: 2000 });
    const model0 = loadInstance(base);
    const first = await solve(model0, { strategy: 'ls', timeBudgetMs: v['first-ms'], seed });
    // Re-planned once a third of the tasks have started (a third of the makespan can be after every start).
    const starts = first.assignments.map((a) => a.start).sort((a, b) => a - b);
    const now = starts[Math.floor(starts.length / 3)] + 1;
    const unchanged = await replan(loadInstance(freezeAt(base, first, now)), first, first, v['budget-ms'], seed + 1);
    const waiting = new Map<string, number>();
    first.assignments.forEach((a) => a.start >= now && waiting.set(a.node, (waiting.get(a.node) ?? 0) + 1));
    const lostNode = [...waiting.entries()].sort((a, b) => b[1] - a[1])[0][0];
    const lostInstance = loadInstance(freezeAt(nodeLost(base, lostNode, now), first, now, (a, end) => a.node === lostNode && end > now));
    const lost = await replan(lostInstance, first, first, v['budget-ms'], seed + 2);
    const lostNoPrevious = await replan(lostInstance, first, undefined, v['budget-ms'], seed + 3);
    rows.push({ seed, tasks: model0.nTasks, firstMakespan: first.objective.makespanSlots, nowSlot: now, lostNode, unchanged, lost, lostNoPrevious });
    process.stderr.write(`seed ${seed}: ${model0.nTasks} tasks, re-plan ${unchanged.ms.toFixed(0)} / ${lost.ms.toFixed(0)} ms, moved ${unchanged.moved} / ${lost.moved} / ${lostNoPrevious.moved}\n`);
  }
  const machine = machineInfo();
  const date = new Date().toISOString();
  const load = { atStart: loadAtStart, atEnd: os.loadavg().map((x) => Math.round(x * 100) / 100) };
  const file = writeJson(resultsFile(`replan-speed-${timestamp()}.json`), { format: 'fallow.bench-replan-speed/v1', date, machine, load, argv, notes: v.note, rows });
  const s = (xs: number[]) => {
    const q = summarize(xs);
    return `${q.median} (${q.min}-${q.max})`;
  };
  const kinds: [string, (r: (typeof rows)[number]) => Run][] = [
    ['unchanged, previous given', (r) => r.unchanged],
    ['node lost, previous given', (r) => r.lost],
    ['node lost, no previous', (r) => r.lostNoPrevious],
  ];
  const md = [
    '# Re-planning a running plan: speed and disruption',
    '',
    runLine(date, machine, `npm run bench:replan-speed -- ${argv.join(' ')}`.trim()),
    `Results: ${file.replace(/.*\/bench\//, 'bench/')}.`,
    '',
    `${rows.length} generated ACO-BP-style instances (seeds ${v['first-seed']}-${v['first-seed'] + v.seeds - 1}, ${s(rows.map((r) => r.tasks))} tasks, priced transfers),`,
    `first planned by ls in ${v['first-ms']} ms, re-planned by ls once a third of the tasks have started, within ${v['budget-ms']} ms. Figures: median (min-max).`,
    '',
    ...table(
      ['re-plan', 'wall ms', 'first feasible ms', 'moved tasks', 'moved share of open', 'makespan vs first plan', 'chosen'],
      kinds.map(([name, pick]) => {
        const runs = rows.map(pick);
        return [
          name,
          s(runs.map((r) => Math.round(r.ms))),
          name.includes('no previous') ? '-' : s(runs.map((r) => Math.round(r.firstFeasibleMs))),
          s(runs.map((r) => r.moved)),
          s(runs.map((r) => Math.round((1000 * r.moved) / Math.max(1, r.open)) / 10)) + ' %',
          s(runs.map((r, i) => Math.round((1000 * r.makespan) / rows[i].firstMakespan) / 1000)),
          [...new Set(runs.map((r) => r.chosen))].join(', '),
        ];
      }),
    ),
    '',
    '"first feasible": the previous plan mended around the frozen tasks, the first of the plans a re-plan weighs (it is',
    'feasible by construction); "moved": tasks of the previous plan, not frozen, on another node or at another start.',
    'Without a previous plan, moved is counted against the first plan all the same (what a plain re-solve would move).',
    `Load average (1, 5, 15 min) at the start ${load.atStart.join(', ')}, at the end ${load.atEnd.join(', ')}: the machine is shared.`,
    ...(v.note.length ? ['', ...v.note.map((n) => `Note: ${n}`)] : []),
    '',
  ].join('\n');
  writeFileSync(benchFile('REPLAN-SPEED.md'), md);
  process.stderr.write(`wrote ${file} and bench/REPLAN-SPEED.md\n`);
});
