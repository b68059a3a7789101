/**
 * bench/REPLAN.md's generated section (bench/replan.ts): per approach the distribution over the scenarios of
 * each realised metric, the re-planned run against each other approach (wins, ties, losses), the re-plans
 * themselves, and the scenarios where re-planning does not win, with the figures that say why.
 */
import type { MachineInfo } from '../lib/machine';
import { table } from '../lib/markdown';
import { approaches, OBJECTIVE_TAGS, Row, RunSettings, ScenarioResult } from './run';
import type { ScenarioOptions } from './scenario';

export interface ReplanResults {
  format: 'fallow.bench.replan/v1';
  date: string;
  command: string;
  machine: MachineInfo;
  settings: RunSettings;
  scenario: Omit<ScenarioOptions, 'seed'>;
  seeds: number[];
  /** Whether ../shared/data was read (it is not: every load is generated), said in the report. */
  traces: string;
  elapsedSeconds: number;
  scenarios: ScenarioResult[];
}

/** min / q1 / median / q3 / max, quantiles interpolated between the closest ranks. */
export function fiveNumbers(xs: readonly number[]): [number, number, number, number, number] | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => {
    const idx = (s.length - 1) * p;
    const lo = Math.floor(idx);
    return s[lo] + (s[Math.ceil(idx)] - s[lo]) * (idx - lo);
  };
  return [s[0], q(0.25), q(0.5), q(0.75), s[s.length - 1]];
}

/** -1 when a did better than b, 0 a tie, 1 worse: fewer unfinished jobs first, then the makespan (1 s apart). */
export function compareMakespan(a: Row, b: Row): number {
  if (a.unfinishedJobs !== b.unfinishedJobs) return a.unfinishedJobs < b.unfinishedJobs ? -1 : 1;
  const d = a.makespanSeconds - b.makespanSeconds;
  return Math.abs(d) < 1 ? 0 : d < 0 ? -1 : 1;
}

export function compareMisses(a: Row, b: Row): number {
  return Math.sign(a.deadlineMisses - b.deadlineMisses);
}

const METRICS: { name: string; of: (r: Row) => number; fmt: (x: number) => string }[] = [
  { name: 'realised makespan (h)', of: (r) => r.makespanSeconds / 3600, fmt: (x) => x.toFixed(2) },
  { name: 'deadline misses', of: (r) => r.deadlineMisses, fmt: (x) => fmtNum(x) },
  { name: 'unfinished jobs', of: (r) => r.unfinishedJobs, fmt: (x) => fmtNum(x) },
  { name: 'relaunched tasks', of: (r) => r.relaunches, fmt: (x) => fmtNum(x) },
  { name: 'revenue', of: (r) => r.revenue, fmt: (x) => fmtNum(x) },
];

export function renderReport(res: ReplanResults, generated: string): string {
  const out: string[] = [];
  const n = res.scenarios.length;
  const s = res.settings;
  const sc = res.scenario;
  const APPROACHES = approaches({ objectives: s.objectives, oracle: s.oracle ?? false, policies: s.policies ?? ['hadoop', 'cuckoo', 'posum'], earlyStart: s.earlyStart ?? false });
  const REPLANNED = APPROACHES.filter((a) => a.startsWith('replan:'));
  // Each re-planned run is weighed against its static plan, the other objective's runs and the policies, never an oracle.
  const rivals = (r: string) => APPROACHES.filter((a) => a !== r && !a.startsWith('oracle:'));
  out.push(generated, '');
  out.push(
    `${n} scenarios (seeds ${res.seeds[0]}-${res.seeds[res.seeds.length - 1]}): harness/ephemeral-instance.ts with ${sc.nodes} nodes, ${sc.jobs} jobs of up to ${sc.maxMaps} maps, ` +
      `300-s slots cut into ${sc.refine} (${300 / sc.refine}-s slots, an 8-hour window), deadlines at release + ${sc.deadlineSlack[0]}-${sc.deadlineSlack[1]} x the job's critical path on the fastest node; ` +
      `${sc.noMisses ? 'the actual load is the forecast (no miss: an ablation)' : 'the actual load misses the forecast (bias, noise, bursts)'} and ${sc.losses} node(s) per scenario are lost in the first ${(sc.lossWindowSeconds / 7200).toFixed(1)} h, ` +
      `${Math.round(sc.lostForGood * 100)} % of them for good (the others for 30 min to 2 h; no return is announced). ${res.traces}`,
    '',
    `Plans: \`${s.strategy}\`, seed ${s.seed}, for each objective (the re-plans solve for the same one): ${s.objectives
      .map((o) => `\`:${OBJECTIVE_TAGS[o]}\` ${o}, ${s.iterations[o]!.plan} iterations for the first plan and ${s.iterations[o]!.replan} per re-plan`)
      .join('; ')} (iterations, not time, so that a seed gives the same plans on a busy machine; at most ${s.timeCapMs / 1000} s a solve); replayed under Salamander's QoS controller. ` +
      `\`replan:*\` re-plans every ${s.everySeconds / 60} min, on every kill and on every node lost or back, at most once per ${s.minGapSeconds} s (an event sooner is met as the static replay meets it and re-planned at the gap's end); ` +
      `the simulated clock stands still during a re-plan. ` +
      (s.earlyStart
        ? `Between re-plans the re-planned run starts a ready task before its planned start where its planned node has a free task slot and room under the actual load now, in the plan's order on that node (early starts, SimulateOptions.earlyStart); \`static+early:*\` replays the static plan so too, \`static:*\` at the plan's starts (Salamander's JobTracker). `
        : '') +
      `Online policies run under Cuckoo's QoS controller (the project's default for policies). ` +
      (s.oracle ? `\`oracle:*\` is a plan made with the same budget knowing the actual load and every loss from the start, replayed the same way: what a plan can do at best, not a competitor. ` : '') +
      `Whole run: ${(res.elapsedSeconds / 60).toFixed(1)} min.`,
    '',
  );

  out.push('### Realised metrics (min / q1 / median / q3 / max over the scenarios)', '');
  const rows: string[][] = [];
  for (const m of METRICS)
    for (const a of APPROACHES) {
      const v = fiveNumbers(res.scenarios.map((x) => m.of(rowOf(x, a))));
      rows.push([m.name, a, ...(v ? v.map(m.fmt) : ['-', '-', '-', '-', '-']), m.fmt(res.scenarios.reduce((t, x) => t + m.of(rowOf(x, a)), 0))]);
    }
  out.push(...table(['metric', 'approach', 'min', 'q1', 'median', 'q3', 'max', 'sum'], rows), '');

  out.push('### Each re-planned run against the other approaches (scenarios where it does better / the same / worse)', '');
  out.push('Makespan is compared after unfinished jobs (fewer first), to the second; revenue higher is better.', '');
  const wins: (string | number)[][] = [];
  const noWorse = (x: ScenarioResult, r: string, a: string) => compareMakespan(rowOf(x, r), rowOf(x, a)) <= 0 && compareMisses(rowOf(x, r), rowOf(x, a)) <= 0;
  for (const r of REPLANNED)
    for (const a of rivals(r).filter((x) => !x.startsWith('replan:'))) {
      const mk = tally(res.scenarios, (x) => compareMakespan(rowOf(x, r), rowOf(x, a)));
      const ms = tally(res.scenarios, (x) => compareMisses(rowOf(x, r), rowOf(x, a)));
      const rv = tally(res.scenarios, (x) => Math.sign(rowOf(x, a).revenue - rowOf(x, r).revenue));
      const both = res.scenarios.filter((x) => noWorse(x, r, a)).length;
      wins.push([r, a, `${mk[0]} / ${mk[1]} / ${mk[2]}`, `${ms[0]} / ${ms[1]} / ${ms[2]}`, `${rv[0]} / ${rv[1]} / ${rv[2]}`, `${both} of ${n}`]);
    }
  out.push(...table(['re-planned', 'against', 'makespan', 'deadline misses', 'revenue', 'no worse on makespan and misses'], wins), '');
  for (const r of REPLANNED) {
    // The static runs of its own objective only (the other objective's plans aim elsewhere).
    const tag = r.slice('replan:'.length);
    const others = rivals(r).filter((a) => !a.startsWith('replan:') && (!a.startsWith('static') || a.endsWith(`:${tag}`)));
    const best = res.scenarios.filter((x) => others.every((a) => noWorse(x, r, a))).length;
    out.push(`\`${r}\` is no worse than ${others.map((a) => `\`${a}\``).join(', ')} all at once, on both makespan and deadline misses, on ${best} of ${n} scenarios.`);
  }
  out.push('');

  for (const r of REPLANNED) out.push(...replanSection(res, r), '');

  out.push('### Per scenario', '');
  out.push('Each cell: realised makespan (h) / deadline misses / relaunched tasks.', '');
  out.push(
    ...table(
      ['scenario', 'tasks', 'lost nodes', ...APPROACHES, ...REPLANNED.map((r) => `${r} re-plans (moved, mean)`)],
      res.scenarios.map((x) => [
        `s${x.seed}`,
        x.tasks,
        x.outages.map((o) => `${o.node}@${(o.fromSeconds / 60).toFixed(0)}m${o.toSeconds != null ? `-${(o.toSeconds / 60).toFixed(0)}m` : ''}`).join(' '),
        ...APPROACHES.map((a) => cell(rowOf(x, a))),
        ...REPLANNED.map((r) => {
          const rp = rowOf(x, r).replan!;
          const m = rp.moved.filter((v): v is number => v !== null);
          return `${rp.adopted} (${m.length ? mean(m).toFixed(0) : '-'})`;
        }),
      ]),
    ),
  );
  return out.join('\n');
}

/** One re-planned approach's re-plans over the scenarios: how many, why, what they moved, how long they took. */
function replanSection(res: ReplanResults, approach: string): string[] {
  const out: string[] = [`### The re-plans of \`${approach}\``, ''];
  const all = res.scenarios.map((x) => rowOf(x, approach).replan!);
  const moved = all.flatMap((r) => r.moved.filter((m): m is number => m !== null));
  const unknownMoved = all.reduce((t, r) => t + r.moved.filter((m) => m === null).length, 0);
  const solveMs = all.flatMap((r) => r.solveMs);
  const triggers: Record<string, number> = {};
  for (const r of all) for (const [k, v] of Object.entries(r.byTrigger)) triggers[k] = (triggers[k] ?? 0) + v;
  const skipped: Record<string, number> = {};
  for (const r of all) for (const [k, v] of Object.entries(r.skipped)) skipped[k] = (skipped[k] ?? 0) + v;
  const dist = (xs: number[], f: (x: number) => string) => fiveNumbers(xs)?.map(f).join(' / ') ?? '-';
  out.push(
    ...table(
      ['', 'min / q1 / median / q3 / max'],
      [
        ['re-plans per run (adopted)', dist(all.map((r) => r.adopted), fmtNum)],
        ['moved tasks per re-plan', dist(moved, fmtNum)],
        ['moved tasks per re-plan, mean per run', dist(all.map((r) => mean(r.moved.filter((m): m is number => m !== null))), (x) => x.toFixed(1))],
        ['solve ms per re-plan (wall clock)', dist(solveMs, (x) => x.toFixed(0))],
      ],
    ),
    '',
    `Triggers: ${Object.entries(triggers).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}; failed re-plans: ${all.reduce((t, r) => t + r.failed, 0)}${unknownMoved ? `; ${unknownMoved} re-plans whose plan gave no stats.replan` : ''}; ` +
      `reasons to re-plan with nothing left to plan: ${Object.entries(skipped).map(([k, v]) => `${k} ${v}`).join(', ')}.`,
  );
  const errors = [...new Set(all.flatMap((r) => r.errors))];
  if (errors.length) out.push('', `Failures said: ${errors.slice(0, 3).map((e) => `\`${e.slice(0, 160)}\``).join('; ')}.`);
  return out;
}

export function rowOf(x: ScenarioResult, a: string): Row {
  const r = x.rows.find((row) => row.approach === a);
  if (!r) throw new Error(`${x.instance}: no ${a} row`);
  return r;
}

function cell(r: Row): string {
  return `${(r.makespanSeconds / 3600).toFixed(2)}${r.unfinishedJobs ? ` (${r.unfinishedJobs} unfinished)` : ''} / ${r.deadlineMisses} / ${r.relaunches}`;
}

function tally(xs: ScenarioResult[], cmp: (x: ScenarioResult) => number): [number, number, number] {
  const t: [number, number, number] = [0, 0, 0];
  for (const x of xs) t[cmp(x) + 1]++;
  return t;
}

function mean(xs: number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
}

function fmtNum(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(1);
}
