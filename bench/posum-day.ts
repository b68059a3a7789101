/**
 * A day of POSUM (issue 40, part 4): 1,200 tasks of SWIM FB-2010 jobs (sized as bench:posum's, their durations and
 * deadlines' slack five times longer) over 24 hours of 60-s slots, half of them arriving evenly over the day and the
 * others in two bursts (09:00 and 15:00, half an hour each), on bench:posum's 8 fixed nodes under Bitbrains load
 * (forecast: a VM's first day, actual: its second) and 8 leasable ones. Runs POSUM with its defaults over the whole day and prints the wall time, the decisions and
 * their cost, and a fingerprint of every decision (time, trigger, each member's predicted score, the choice), so
 * that two builds can be shown to decide alike. `--latency`: instead, bench:posum's decision latency later in a
 * run (1,000 tasks queued after a past of 1,000 tasks an hour, on 100 nodes) at 0, 30, 60, 120 and 240 minutes.
 * `--scale 10`: SWIM's durations ten times instead of five, a day with a queue most of the time (625 decisions
 * instead of 362; issue 40 quotes a 1,200-task day of 992 decisions, whose workload is not in the repository).
 * Writes nothing.
 *
 *   node dist/bench/posum-day.js [--seed 1] [--scale 5] [--tasks 1200] [--runs 1] [--threads 1] [--from-time-zero] [--latency] [--latency-runs 3]
 */
import { createHash } from 'node:crypto';
import { loadInstance } from '../src/engine/model/model';
import { InstanceDoc, JobSpec } from '../src/engine/model/types';
import { Random } from '../src/engine/random';
import { fc } from '../src/engine/evaluate/posum-score';
import { Decision, posum, PortfolioPolicy } from '../src/engine/policies/posum/posum-policy';
import type { RunReport } from '../src/engine/simulate/run-report';
import { getQos } from '../src/engine/qos';
import { portfolioParams, simulatePolicy } from '../src/engine/simulation';
import { Simulator } from '../src/engine/simulate/simulator';
import { ActualUsage } from '../src/engine/simulate/usage';
import { SwimJob } from '../src/predict-eval/swim';
import { command, EntryArgs, nothingToRun, runEntry } from './lib/cli';
import { machineInfo } from './lib/machine';
import { latency } from './posum';
import { bitbrains, posumInputs, posumNodes, SLOT, swimJob, WEIGHTS } from './posum/workload';

const DAY_SLOTS = 1440;
const SCALE = 5;

/** The day: SWIM jobs from a random place in the trace until `tasks` tasks; half released evenly, the rest in two bursts. */
export function dayWorkload(trace: SwimJob[], traces: string[], seed: number, tasks = 1200, scale = SCALE): { doc: InstanceDoc; actual: Record<string, Record<string, number[]>> } {
  const rng = new Random(seed);
  const usage: Record<string, Record<string, number[]>> = {};
  const actual: Record<string, Record<string, number[]>> = {};
  for (let k = 0; k < 8; k++) {
    const b = bitbrains(traces[(seed + k) % traces.length], DAY_SLOTS);
    usage[`f${k}`] = b.forecast;
    actual[`f${k}`] = b.actual;
  }
  const jobs: JobSpec[] = [];
  let count = 0;
  for (let n = 0, at = rng.int(Math.max(1, trace.length - 1000)); count < tasks; n++, at = (at + 1) % trace.length) {
    const u = rng.next();
    const release = u < 0.5 ? rng.int(DAY_SLOTS - 120) : u < 0.75 ? 540 + rng.int(30) : 900 + rng.int(30);
    const job = swimJob(trace[at], n, release, rng);
    // Five times SWIM's durations (as on slower nodes), so that the cluster is busy most of the day.
    for (const s of job.stages) s.durationSeconds = scale * s.durationSeconds!;
    if (job.deadlineSlot !== undefined) job.deadlineSlot = release + scale * (job.deadlineSlot - release);
    jobs.push(job);
    count += job.stages.reduce((sum, s) => sum + s.tasks, 0);
  }
  return { doc: { format: 'fallow.instance/v1', name: `posum-day-${seed}`, horizon: { slots: DAY_SLOTS, slotSeconds: SLOT }, metrics: ['cpu', 'ram'], nodes: posumNodes(), usage, jobs }, actual };
}

const COMMAND = command({
  name: 'bench:posum-day',
  usage: 'usage: node dist/bench/posum-day.js [options]     (prints its figures, writes nothing)',
  options: {
    seed: { kind: 'integer', default: 1, arg: 'N', help: 'the workload seed (default 1)' },
    scale: { kind: 'integer', default: SCALE, arg: 'N', help: `SWIM's durations (and deadlines' slack) times N (default ${SCALE})` },
    tasks: { kind: 'integer', default: 1200, arg: 'N', help: 'jobs until this many tasks (default 1200)' },
    runs: { kind: 'integer', default: 1, arg: 'N', help: 'runs of the day, one after the other (default 1)' },
    latency: { kind: 'flag', help: "bench:posum's decision latency at 0, 30, 60, 120 and 240 min instead of the day" },
    'latency-runs': { kind: 'integer', default: 3, arg: 'N', help: 'decisions per latency figure, the median printed (default 3)' },
    threads: { kind: 'integer', default: 1, arg: 'N', help: "threads sharing each decision's look-ahead, 1 or 2 (SimulateOptions.lookAheadThreads; default 1)" },
    'from-time-zero': { kind: 'flag', help: 'every decision replays the past from time 0, as before the fork of the live run (the same decisions, slower)' },
  },
});

function main({ values }: EntryArgs<typeof COMMAND.options>): number {
  console.log(JSON.stringify({ date: new Date().toISOString(), machine: machineInfo() }));
  if (values.latency) {
    for (const atSeconds of [0, 1800, 3600, 7200, 14400]) console.log(`decision at ${atSeconds / 60} min: ${latency(1000, 100, atSeconds, values['latency-runs']).toFixed(0)} ms (median of ${values['latency-runs']})`);
    return 0;
  }
  const inputs = posumInputs();
  if (typeof inputs === 'string') return nothingToRun('bench:posum-day', inputs);
  const w = dayWorkload(inputs.trace, inputs.traces, values.seed, values.tasks, values.scale);
  const model = loadInstance(w.doc);
  for (let r = 0; r < values.runs; r++) {
    const t0 = process.hrtime.bigint();
    const cpu0 = process.cpuUsage();
    const params = portfolioParams({ weights: WEIGHTS });
    let report: RunReport;
    let d: Decision[];
    if (values.threads > 1) {
      // The same run as below, through the entry point that starts the second thread (the CPU seconds count both).
      const r = simulatePolicy(model, 'posum', { actual: w.actual, qos: 'salamander', seed: 1, posum: { weights: WEIGHTS }, lookAheadThreads: values.threads });
      (report = r), (d = r.decisions!);
    } else {
      const run = posum.create({ model, posum: params });
      // The reference: every decision replays the past from time 0 (a build before the fork of the live run ignores it).
      (run.driver as PortfolioPolicy).replayFromTimeZero = values['from-time-zero'];
      report = new Simulator(model, new ActualUsage(model, w.actual), run.driver, { qos: getQos('salamander'), seed: 1, provisioner: run.provisioner }).run();
      d = (run.driver as PortfolioPolicy).trail;
    }
    const wall = Number(process.hrtime.bigint() - t0) / 1e9;
    const cpu = process.cpuUsage(cpu0);
    const p = { fc: Math.round(fc(report.score, { vd: 0, sb: 0, c: 0 }, params.weights) * 1e4) / 1e4, score: report.score };
    const ms = d.map((x) => x.elapsedMs).sort((a, b) => a - b);
    const fingerprint = createHash('sha256').update(JSON.stringify(d.map(({ elapsedMs: _, ...rest }) => rest))).digest('hex').slice(0, 16);
    console.log(JSON.stringify({ run: r + 1, tasks: model.nTasks, jobs: model.jobs.length, wallSeconds: Math.round(wall * 10) / 10, cpuSeconds: Math.round((cpu.user + cpu.system) / 1e5) / 10, decisions: d.length, decisionMs: { median: ms[Math.floor(ms.length / 2)] ?? 0, p90: ms[Math.floor(ms.length * 0.9)] ?? 0, max: ms[ms.length - 1] ?? 0 }, fc: p.fc, score: p.score, fingerprint }));
  }
  return 0;
}

if (require.main === module) runEntry(COMMAND, main);
