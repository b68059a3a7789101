/**
 * POSUM against each of its 16 members alone (issue 24): workloads of 40 jobs whose input and shuffle sizes
 * come from SWIM's Facebook trace (a random window of FB-2010), arriving uniformly over 30 minutes or in 3
 * bursts, half of them deadline jobs (deadline = release + relaxation 1.5-3 x the job's runtime alone on the
 * cluster); 8 fixed nodes whose regular load is a Bitbrains VM's (forecast: its first day, actual: its
 * second) and 8 leasable nodes (start-up 60 s, minimum lease 10 min, 1 per hour). Per run: V_D, S_B, C
 * and F_c (alpha 1/3600 per s^2, beta 0.1, gamma 1). Then sensitivity (delta, period, weights) and the
 * decision latency for 1,000 queued tasks on 100 nodes. Needs ../shared (says so when absent).
 *
 *   npm run bench:posum -- [--workloads 10]
 */
import { writeFileSync } from 'node:fs';
import { loadInstance } from '../src/engine/model/model';
import { InstanceDoc, JobSpec } from '../src/engine/model/types';
import { MEMBERS, PortfolioParams, REPLAY_LOOK_AHEAD_SECONDS } from '../src/engine/policies/posum/params';
import { PortfolioPolicy } from '../src/engine/policies/posum/posum-policy';
import { portfolioParams, simulatePolicy } from '../src/engine/simulation';
import { Simulator } from '../src/engine/simulate/simulator';
import { ActualUsage } from '../src/engine/simulate/usage';
import { getQos } from '../src/engine/qos';
import { machineInfo } from './lib/machine';
import { command, EntryArgs, nothingToRun, runEntry } from './lib/cli';
import { runLine } from './lib/markdown';
import { benchFile } from './lib/paths';
import { resultsFile, writeJson } from './lib/results';
import { posumInputs, SLOT, SLOTS, WEIGHTS, workload } from './posum/workload';

interface Run {
  workload: string;
  member: string;
  vd: number;
  sb: number;
  c: number;
  fc: number;
  unfinished: number;
  switches?: number;
  decisions?: number;
  /** posum+ls: decisions that chose the ls member. */
  lsChosen?: number;
  decisionMs?: number;
  /** posum: each decision's time in the run and its cost, [seconds, ms] (a replayed look-ahead costs more later). */
  decisionTimes?: [number, number][];
}

function runAll(w: ReturnType<typeof workload>, params: PortfolioParams, lsParams: PortfolioParams): Run[] {
  const model = loadInstance(w.doc);
  const out: Run[] = [];
  const row = (member: string, r: ReturnType<typeof simulatePolicy>): Run => ({ workload: w.doc.name, member, ...r.score, fc: r.fc!, unfinished: r.unfinishedJobs });
  for (const m of MEMBERS) out.push(row(`${m.allocation}/${m.provisioning}`, simulatePolicy(model, m.allocation, { qos: 'salamander', seed: 1, actual: w.actual, provision: m.provisioning, posum: params })));
  const p = simulatePolicy(model, 'posum', { qos: 'salamander', seed: 1, actual: w.actual, posum: params });
  const d = p.decisions ?? [];
  let switches = 0;
  for (let n = 1; n < d.length; n++) if (d[n].choice.allocation !== d[n - 1].choice.allocation || d[n].choice.provisioning !== d[n - 1].choice.provisioning) switches++;
  const ms = d.map((x) => x.elapsedMs).sort((a, b) => a - b);
  out.push({ ...row('posum', p), switches, decisions: d.length, decisionMs: ms[Math.floor(ms.length / 2)] ?? 0, decisionTimes: d.map((x) => [x.timeSeconds, x.elapsedMs]) });
  // Beyond the paper: ls as a seventeenth member.
  const withLs = simulatePolicy(model, 'posum', { qos: 'salamander', seed: 1, actual: w.actual, posum: lsParams });
  const dl = withLs.decisions ?? [];
  out.push({ ...row('posum+ls', withLs), decisions: dl.length, lsChosen: dl.filter((x) => x.choice.allocation === 'ls-plan').length });
  return out;
}

/**
 * One decision for `tasks` queued tasks on `nodes` nodes, median of `runs`: at time 0, or (`atSeconds`) that far into a
 * run that has already run 1,000 tasks an hour (arriving evenly, POSUM deciding all along), the queue arriving a
 * minute before the decision: a replayed look-ahead runs that past again.
 */
export function latency(tasks: number, nodes: number, atSeconds = 0, runs = 7): number {
  const job = (id: string, release: number, j: number): JobSpec => ({ id, class: j % 2 ? 'batch' : 'deadline', releaseSlot: release, ...(j % 2 ? {} : { deadlineSlot: release + 30 + (j % 50) }), stages: [{ id: 'm', tasks: 40, demand: { cpu: 1 }, durationSeconds: 60 }, { id: 'r', tasks: 10, demand: { cpu: 1 }, after: ['m'], durationSeconds: 90 }] });
  const past = Math.round((20 * atSeconds) / 3600);
  const jobs: JobSpec[] = [
    ...Array.from({ length: past }, (_, j) => job(`p${j}`, Math.floor((j * Math.max(0, atSeconds - 120)) / past / SLOT), j)),
    ...Array.from({ length: tasks / 50 }, (_, j) => job(`j${j}`, Math.max(0, Math.floor((atSeconds - 60) / SLOT)), j)),
  ];
  const doc: InstanceDoc = {
    format: 'fallow.instance/v1',
    name: 'latency',
    horizon: { slots: SLOTS, slotSeconds: SLOT },
    metrics: ['cpu'],
    nodes: Array.from({ length: nodes }, (_, k) => ({ id: `n${k}`, capacity: { cpu: 4 }, ...(k >= nodes / 2 ? { lease: { startupSeconds: 60, minLeaseSeconds: 600 }, costPerHour: 1 } : {}) })),
    jobs,
  };
  const model = loadInstance(doc);
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const policy = new PortfolioPolicy(model, portfolioParams({ weights: WEIGHTS }));
    const sim = new Simulator(model, new ActualUsage(model, undefined), policy, { qos: getQos('none'), provisioner: policy, maxWindows: 1, ...(atSeconds > 0 ? { stopAtSeconds: atSeconds } : {}) });
    if (atSeconds > 0) sim.run();
    else policy.prepare(sim);
    const t0 = process.hrtime.bigint();
    policy.rethink(sim);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

const COMMAND = command({
  name: 'bench:posum',
  usage: 'usage: npm run bench:posum -- [options]     (writes bench/results/posum-<date>[-seedN].json and bench/POSUM[-seedN].md)',
  options: {
    workloads: { kind: 'integer', default: 10, arg: 'N', help: 'uniform and bursty workloads each (default 10)' },
    // POSUM's own default when not given: until the submitted work is done (600 s for the rebuilt ls row).
    'look-ahead': { kind: 'number', min: 0, arg: 'S', help: "POSUM's look-ahead in seconds (default: until the submitted work is done)" },
    period: { kind: 'number', above: 0, default: 120, arg: 'S', help: "POSUM's decision period in seconds (default 120)" },
    // Fresh seeds check that nothing was tuned to the default ones.
    'first-seed': { kind: 'integer', default: 1, arg: 'N', help: 'the first workload seed (default 1)' },
    only: { kind: 'string', arg: 'W[,W]', help: 'only these workloads (e.g. uniform-4,bursty-6), no sensitivity or latency: for quick looks' },
  },
});

async function main({ values, argv }: EntryArgs<typeof COMMAND.options>): Promise<number | void> {
  const count = values.workloads;
  const firstSeed = values['first-seed'];
  const only = values.only?.split(',');
  const inputs = posumInputs();
  if (typeof inputs === 'string') return nothingToRun('bench:posum', inputs);
  const { trace, traces } = inputs;
  const given = { weights: WEIGHTS, periodSeconds: values.period, ...(values['look-ahead'] !== undefined ? { lookAheadSeconds: values['look-ahead'] } : {}) };
  const params = portfolioParams(given);
  const withLs = portfolioParams({ ...given, lsMember: true });
  const command = `npm run bench:posum -- ${argv.join(' ')}`.trim();
  const runs: Run[] = [];
  for (const kind of ['uniform', 'bursty'] as const)
    for (let s = firstSeed; s < firstSeed + count; s++) {
      if (only && !only.includes(`${kind}-${s}`)) continue;
      const r = runAll(workload(trace, traces, kind, s), params, withLs);
      runs.push(...r);
      const p = r.find((x) => x.member === 'posum')!;
      const l = r.find((x) => x.member === 'posum+ls')!;
      const best = Math.min(...r.filter((x) => !x.member.startsWith('posum')).map((x) => x.fc));
      console.log(`${kind} ${s}: posum F_c ${p.fc.toFixed(3)}, with ls ${l.fc.toFixed(3)} (ls chosen ${l.lsChosen} of ${l.decisions}), best member ${best.toFixed(3)}, ${p.decisions} decisions, ${p.switches} switches`);
    }
  if (only) return;
  // Sensitivity on the first 3 bursty workloads: one parameter changed at a time.
  const variants: [string, Partial<PortfolioParams>][] = [
    ['delta 0.2', { allocation: { ...params.allocation, delta: 0.2 } }],
    ['delta 0.8', { allocation: { ...params.allocation, delta: 0.8 } }],
    ['period 60 s', { periodSeconds: 60 }],
    ['period 300 s', { periodSeconds: 300 }],
    ['look-ahead 600 s', { lookAheadSeconds: 600 }],
    ['look-ahead 3600 s', { lookAheadSeconds: 3600 }],
    ['every period only (no decision at arrivals, as the paper)', { decideOnArrival: false }],
    ['look-ahead 600 s, every period only (the defaults of the morning of 2026-11-27)', { lookAheadSeconds: 600, decideOnArrival: false }],
    ['echo arrivals (the last 600 s of arrivals repeat)', { echoArrivals: true }],
    ['rebuilt look-ahead of 600 s, echo arrivals, every period only (the defaults before 2026-11-27)', { lookAheadMode: 'rebuild', lookAheadSeconds: 600, echoArrivals: true, decideOnArrival: false }],
    ['the same, terminal drain', { lookAheadMode: 'rebuild', lookAheadSeconds: 600, echoArrivals: true, decideOnArrival: false, terminalDrain: true }],
    ['alpha x10', { weights: { ...WEIGHTS, alpha: WEIGHTS.alpha * 10 } }],
    ['beta x10', { weights: { ...WEIGHTS, beta: WEIGHTS.beta * 10 } }],
    ['gamma x10', { weights: { ...WEIGHTS, gamma: WEIGHTS.gamma * 10 } }],
  ];
  const sensitivity: { variant: string; workload: string; vd: number; sb: number; c: number; fc: number }[] = [];
  for (let s = firstSeed; s < firstSeed + 3; s++) {
    const w = workload(trace, traces, 'bursty', s);
    const model = loadInstance(w.doc);
    for (const [name, change] of [['as run', {}] as [string, Partial<PortfolioParams>], ...variants]) {
      const p = { ...params, ...change };
      const r = simulatePolicy(model, 'posum', { qos: 'salamander', seed: 1, actual: w.actual, posum: p });
      // F_c with the bench's weights, so that rows compare.
      const fcBench = WEIGHTS.alpha * r.score.vd + WEIGHTS.beta * r.score.sb + WEIGHTS.gamma * r.score.c;
      sensitivity.push({ variant: name, workload: w.doc.name, ...r.score, fc: fcBench });
    }
  }
  const latencies = [250, 500, 1000, 2000].map((tasks) => ({ tasks, nodes: 100, medianMs: latency(tasks, 100) }));
  const midRun = [1800, 3600, 7200, 14400].map((atSeconds) => ({ tasks: 1000, nodes: 100, atSeconds, medianMs: latency(1000, 100, atSeconds) }));
  console.log(latencies, midRun);
  const result = { date: new Date().toISOString(), machine: machineInfo(), command, workloads: count, firstSeed, weights: WEIGHTS, params: { lookAheadSeconds: params.lookAheadSeconds, periodSeconds: params.periodSeconds, decideOnArrival: params.decideOnArrival }, runs, sensitivity, latencies, midRun };
  const suffix = firstSeed === 1 ? '' : `-seed${firstSeed}`;
  writeJson(resultsFile(`posum-${result.date.slice(0, 10)}${suffix}.json`), result, { finalNewline: false });
  writeFileSync(benchFile(`POSUM${suffix}.md`), report(result));
  console.log(`wrote bench/POSUM${suffix}.md`);
}

function report(r: { date: string; machine: ReturnType<typeof machineInfo>; command: string; workloads: number; firstSeed: number; params: { lookAheadSeconds: number; periodSeconds: number; decideOnArrival: boolean }; runs: Run[]; sensitivity: { variant: string; workload: string; vd: number; sb: number; c: number; fc: number }[]; latencies: { tasks: number; nodes: number; medianMs: number }[]; midRun: { tasks: number; nodes: number; atSeconds: number; medianMs: number }[] }): string {
  const names = [...new Set(r.runs.map((x) => x.workload))];
  const members = [...new Set(r.runs.map((x) => x.member))].filter((m) => !m.startsWith('posum'));
  let within5 = 0;
  let lsDecisions = 0;
  let lsChosen = 0;
  let lsBetter = 0;
  let notWorseThanMedian = 0;
  const rows = names.map((w) => {
    const of = r.runs.filter((x) => x.workload === w);
    const p = of.find((x) => x.member === 'posum')!;
    const fcs = of.filter((x) => !x.member.startsWith('posum')).map((x) => x.fc).sort((a, b) => a - b);
    const best = fcs[0];
    const med = fcs[Math.floor(fcs.length / 2)];
    const bestMember = of.find((x) => !x.member.startsWith('posum') && x.fc === best)!.member;
    const l = of.find((x) => x.member === 'posum+ls')!;
    lsDecisions += l.decisions ?? 0;
    lsChosen += l.lsChosen ?? 0;
    if (l.fc < p.fc - 1e-9) lsBetter++;
    if (p.fc <= best * 1.05 + 1e-9) within5++;
    if (p.fc <= med + 1e-9) notWorseThanMedian++;
    return `| ${w} | ${p.vd.toFixed(0)} / ${p.sb.toFixed(2)} / ${p.c.toFixed(2)} | ${p.fc.toFixed(3)} | ${best.toFixed(3)} (${bestMember}) | ${med.toFixed(3)} | ${fcs[fcs.length - 1].toFixed(3)} | ${p.decisions} / ${p.switches} | ${p.decisionMs} | ${l.fc.toFixed(3)} (${l.lsChosen} of ${l.decisions}) |`;
  });
  // Where POSUM ended more than 5% above its best member: which component of F_c the gap is made of.
  const ratios: number[] = [];
  const losses = names.flatMap((w) => {
    const of = r.runs.filter((x) => x.workload === w);
    const p = of.find((x) => x.member === 'posum')!;
    const best = of.filter((x) => !x.member.startsWith('posum')).reduce((a, b) => (b.fc < a.fc ? b : a));
    ratios.push(p.fc / best.fc);
    if (p.fc <= best.fc * 1.05 + 1e-9) return [];
    const part = (d: number) => (d >= 0 ? '+' : '') + d.toFixed(2);
    return [
      `| ${w} | ${(p.fc / best.fc).toFixed(2)} | ${best.member}: ${best.vd.toFixed(0)} / ${best.sb.toFixed(2)} / ${best.c.toFixed(2)} | ${p.vd.toFixed(0)} / ${p.sb.toFixed(2)} / ${p.c.toFixed(2)} | ${part(WEIGHTS.alpha * (p.vd - best.vd))} / ${part(WEIGHTS.beta * (p.sb - best.sb))} / ${part(WEIGHTS.gamma * (p.c - best.c))} | ${p.switches} |`,
    ];
  });
  ratios.sort((a, b) => a - b);
  const q = (f: number) => ratios[Math.min(ratios.length - 1, Math.floor(f * ratios.length))].toFixed(3);
  const memberMedian = (m: string) => {
    const xs = r.runs.filter((x) => x.member === m).map((x) => x.fc).sort((a, b) => a - b);
    return xs[Math.floor(xs.length / 2)];
  };
  const lines = [
    '# POSUM',
    '',
    runLine(r.date, r.machine, r.command),
    'Workloads: 40 SWIM (FB-2010) jobs each, uniform (over 30 min) or bursty (3 bursts) arrivals, half deadline jobs; 8 fixed nodes under a Bitbrains VM\'s load',
    '(decisions see its first day, the run its second) and 8 leasable ones; Salamander\'s QoS. F_c = V_D/3600 + 0.1 S_B + C (lower is better).',
    `POSUM decides every ${r.params.periodSeconds} s${r.params.decideOnArrival ? ' and whenever a job is submitted' : ''}; its look-ahead is replayed (the workload submitted so far runs again from time 0 with the load observed so far and POSUM's past choices; the queue alone, no echoed arrivals) ${r.params.lookAheadSeconds >= REPLAY_LOOK_AHEAD_SECONDS ? 'until the submitted work is done (the default)' : `over ${r.params.lookAheadSeconds} s`}.`,
    '',
    `POSUM within 5% of the best member (or better): ${within5} of ${names.length} workloads; not worse than the median member: ${notWorseThanMedian} of ${names.length}.`,
    '',
    `POSUM's F_c over its best member's, across the workloads: median ${q(0.5)}, 90th percentile ${q(0.9)}, worst ${ratios[ratios.length - 1].toFixed(3)}.`,
    '',
    '| workload | POSUM V_D / S_B / C | POSUM F_c | best member F_c | median member | worst member | decisions / switches | median decision (ms) | with ls as 17th member (rebuilt look-ahead, echoed arrivals): F_c (ls chosen) |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    '## Where switching cost more than it gained',
    '',
    'The workloads where POSUM ended more than 5% above its best member, and what the gap is made of: each component\'s',
    'weighted difference, POSUM minus the best member (alpha dV_D / beta dS_B / gamma dC; positive: POSUM worse).',
    '',
    '| workload | POSUM / best | best member: V_D / S_B / C | POSUM: V_D / S_B / C | gap: V_D / S_B / C | switches |',
    '|---|---|---|---|---|---|',
    ...losses,
    '',
    `Fallow's ls as a seventeenth member (200 ms of planning per decision, followed as a priority; it needs the rebuilt look-ahead, run with its defaults: 600 s, echoed arrivals): chosen in ${lsChosen} of ${lsDecisions} decisions; POSUM with it beats POSUM without it on ${lsBetter} of ${names.length} workloads.`,
    '',
    'Median F_c of each member over all workloads (POSUM: ' + memberMedian('posum').toFixed(3) + '):',
    '',
    '| member | median F_c |',
    '|---|---|',
    ...members.map((m) => `| ${m} | ${memberMedian(m).toFixed(3)} |`),
    '',
    '## Sensitivity (the first 3 bursty workloads, one parameter changed at a time; F_c with the weights above)',
    '',
    '| variant | ' + [...new Set(r.sensitivity.map((x) => x.workload))].join(' | ') + ' |',
    '|---|' + [...new Set(r.sensitivity.map((x) => x.workload))].map(() => '---|').join(''),
    ...[...new Set(r.sensitivity.map((x) => x.variant))].map((v) => `| ${v} | ${r.sensitivity.filter((x) => x.variant === v).map((x) => `${x.fc.toFixed(3)} (${x.vd.toFixed(0)} / ${x.sb.toFixed(2)} / ${x.c.toFixed(2)})`).join(' | ')} |`),
    '',
    '## Decision latency (16 look-ahead simulations until the queue is done, the default; half the nodes leasable; median of 7)',
    '',
    'At the start of a run (time 0: the replay has no past to run again):',
    '',
    '| queued tasks | nodes | median (ms) |',
    '|---|---|---|',
    ...r.latencies.map((l) => `| ${l.tasks} | ${l.nodes} | ${l.medianMs.toFixed(0)} |`),
    '',
    'Later in a run: 1,000 tasks arriving a minute before the decision on 100 nodes, after a past of 1,000 tasks an hour (the replay runs that past again, once, and forks it for the 16 members):',
    '',
    '| decision at | queued tasks | nodes | median (ms) |',
    '|---|---|---|---|',
    ...r.midRun.map((l) => `| ${l.atSeconds / 60} min | ${l.tasks} | ${l.nodes} | ${l.medianMs.toFixed(0)} |`),
    '',
    'Through the runs above, by how far into the run the decision came (the replayed look-ahead runs the workload again from time 0, once per decision, so a decision costs more later in a run):',
    '',
    '| decision time in the run | decisions | median (ms) | 90th percentile (ms) | max (ms) |',
    '|---|---|---|---|---|',
    ...decisionCostRows(r.runs),
    '',
  ];
  return lines.join('\n');
}

/** Decision cost by the decision's time in the run: under 30 min, 30-60 min, 1-2 h, later. */
function decisionCostRows(runs: Run[]): string[] {
  const all = runs.flatMap((x) => x.decisionTimes ?? []);
  const buckets: [string, number, number][] = [['0-30 min', 0, 1800], ['30-60 min', 1800, 3600], ['1-2 h', 3600, 7200], ['2 h and later', 7200, Infinity]];
  return buckets.flatMap(([name, from, to]) => {
    const ms = all.filter(([t]) => t >= from && t < to).map(([, m]) => m).sort((a, b) => a - b);
    if (!ms.length) return [];
    const q = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))];
    return [`| ${name} | ${ms.length} | ${q(0.5)} | ${q(0.9)} | ${ms[ms.length - 1]} |`];
  });
}

if (require.main === module) runEntry(COMMAND, main);
