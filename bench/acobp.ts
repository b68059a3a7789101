/**
 * The ACO-BP comparison (seeds/003, section IV) in Fallow's simulator, with its network model (remote
 * reads and shuffles at the intra- or inter-rack rate): the online policies fair (Fair Scheduler with delay
 * scheduling), fair-nodelay, rws, hmjs, hadoop and aco-bp (plus, on the paper's set-up, aco-bp with one
 * parameter changed at a time, to explain its figures), and the plans of the aco-bp and ls strategies replayed by
 * the same simulator. On the paper's set-up (../shared/instances/acobp-paper.json extended with blocks when
 * present, else the generated seed-1 instance of the same shape) and on `--seeds` generated instances of
 * the same shape (harness/acobp-instance.ts: other block placements, task counts and latencies within 20%,
 * `--scale` times the tasks). Also one ACO-BP decision's time at the start of the paper's batch (100 VMs,
 * 6 jobs), median of 21. Writes bench/results/acobp-<date>.json and bench/ACOBP.md.
 *
 *   npm run bench:acobp -- [--seeds 20] [--scale 2] [--budget-ms 5000]
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { decide } from '../src/engine/aco-bp/decide';
import { ACO_BP_DEFAULTS } from '../src/engine/aco-bp/params';
import { loadInstance, Model } from '../src/engine/model/model';
import { InstanceDoc, PlanDoc } from '../src/engine/model/types';
import { Random } from '../src/engine/random';
import { simulatePlan, simulatePolicy, SimReport } from '../src/engine/simulation';
import { Simulator } from '../src/engine/simulate/simulator';
import { ActualUsage } from '../src/engine/simulate/usage';
import { getQos } from '../src/engine/qos';
import { AcoBpPolicy } from '../src/engine/policies/aco-bp/aco-bp';
import { median } from '../src/engine/simulate/run-report';
import { solve } from '../src/engine/solve';
import { fromPlanDoc, toPlanDoc } from '../src/engine/schedule/plan-doc';
import { placeReducesOverLinks } from '../src/engine/placement/shuffle-aware';
import { acoBpInstance } from '../harness/acobp-instance';
import { command, EntryArgs, runEntry } from './lib/cli';
import { machineInfo } from './lib/machine';
import { runLine, table } from './lib/markdown';
import { resultsFile, writeJson } from './lib/results';
import { benchFile, repoRoot } from './lib/paths';

const POLICIES = ['fair', 'fair-nodelay', 'rws', 'hmjs', 'hadoop', 'aco-bp'];
const PLANS = ['aco-bp', 'ls', 'exact', 'auto'];
/** Besides the priced plans: ls planned with compute alone, as before transfers were priced, and that plan's reduces placed again over the links. */
const UNPRICED = ['plan:ls-ignored', 'plan:ls-links'];
/** Hadoop's default reduce slow start (the paper runs with early reduces, L244), and the strict barrier. */
const SLOWSTART = 0.05;

interface Row {
  instance: string;
  /** A policy name, `<policy> barrier` (strict map -> reduce barrier), or `plan:<strategy>`. */
  approach: string;
  makespanSeconds: number;
  meanLatencySeconds: number;
  remoteTaskPct: number;
  unfinishedJobs: number;
  elapsedMs: number;
  /** Per job: end minus release (s). */
  latencyByJob: Record<string, number | null>;
  /** Mean share of the cluster's vCPU and memory the batch left unused while it ran (Fig. 10). */
  unused: Record<string, number>;
  /** For plans: the makespan the plan itself states (s), which leaves the shuffle out. */
  plannedMakespanSeconds?: number;
}

const COMMAND = command({
  name: 'bench:acobp',
  usage: 'usage: npm run bench:acobp -- [options]     (writes bench/results/acobp-<date>.json and bench/ACOBP.md)',
  options: {
    seeds: { kind: 'integer', default: 20, arg: 'N', help: 'generated instances besides the paper set-up (default 20)' },
    scale: { kind: 'number', above: 0, default: 2, arg: 'X', help: "the generated instances' tasks, times the paper's (default 2)" },
    'budget-ms': { kind: 'number', above: 0, default: 5000, arg: 'N', help: "each plan's solving budget (default 5000)" },
    'output-min': { kind: 'number', above: 0, default: 0.1, arg: 'X', help: "generated instances: a job's least map output, a share of its input (default 0.1)" },
    'output-max': { kind: 'number', above: 0, default: 1, arg: 'X', help: "generated instances: a job's largest map output, a share of its input (default 1)" },
  },
});

async function main({ values }: EntryArgs<typeof COMMAND.options>): Promise<void> {
  const { seeds, scale } = values;
  const budget = values['budget-ms'];
  const outputShare: [number, number] = [values['output-min'], values['output-max']];
  const rows: Row[] = [];
  const paper = paperInstance();
  console.log(`paper set-up: ${paper.name}`);
  for (const r of await compare(paper, budget)) rows.push(r);
  for (const r of ablations(paper)) rows.push(r);
  for (let s = 0; s < seeds; s++) {
    const doc = acoBpInstance({ seed: 100 + s, scale, jitter: 0.2, slots: 7200, outputShare });
    console.log(`generated ${doc.name}`);
    for (const r of await compare(doc, budget)) rows.push(r);
  }
  const decisionMs = decisionTimes(loadInstance(acoBpInstance({ seed: 1 })));
  const result = { date: new Date().toISOString(), machine: machineInfo(), seeds, scale, budgetMs: budget, outputShare, decisionMs, rows };
  writeJson(resultsFile(`acobp-${result.date.slice(0, 10)}.json`), result, { finalNewline: false });
  writeFileSync(benchFile('ACOBP.md'), report(result, paper.name));
  console.log('wrote bench/ACOBP.md');
}

/** The paper's instance from ../shared with blocks placed by the generator's rule, or the generated one. */
function paperInstance(): InstanceDoc {
  const shared = path.join(repoRoot(), '..', 'shared', 'instances', 'acobp-paper.json');
  const generated = acoBpInstance({ seed: 1, slots: 7200 });
  if (!existsSync(shared)) return { ...generated, name: 'acobp-generated-seed1 (no ../shared)' };
  const doc = JSON.parse(readFileSync(shared, 'utf8')) as InstanceDoc;
  // Same VMs and jobs as the generator's seed 1; the shared file has no blocks, racks' network or outputs.
  const byId = new Map(generated.jobs.map((j) => [j.id, j]));
  for (const job of doc.jobs) {
    const g = byId.get(job.id);
    job.stages.forEach((st, i) => {
      const gs = g?.stages[i];
      if (gs?.blocks && gs.tasks === st.tasks) Object.assign(st, { blocks: gs.blocks, outputMB: gs.outputMB });
    });
  }
  return { ...doc, horizon: { slots: 7200, slotSeconds: 1 }, network: generated.network };
}

async function compare(doc: InstanceDoc, budget: number): Promise<Row[]> {
  const model = loadInstance(doc);
  const out: Row[] = [];
  const row = (approach: string, r: SimReport): Row => toRow(doc.name, approach, r);
  for (const p of POLICIES) {
    out.push(row(p, simulatePolicy(model, p, { qos: 'none', seed: 1, reduceSlowstart: SLOWSTART })));
    out.push(row(`${p} barrier`, simulatePolicy(model, p, { qos: 'none', seed: 1 })));
  }
  const replay = (approach: string, plan: PlanDoc) => ({ ...row(approach, simulatePlan(model, plan, { qos: 'none', seed: 1 })), plannedMakespanSeconds: plan.objective.makespanSlots * model.slotSeconds });
  for (const s of PLANS) {
    // Priced transfers (the default with network fields): each task's fetch is in the plan.
    // A plan's reduces start when the plan says, after its maps: slow start changes nothing for them.
    out.push(replay(`plan:${s}`, await solve(model, { strategy: s, timeBudgetMs: budget, seed: 1 })));
    if (s !== 'ls') continue;
    // The ls plan made with compute alone, as before transfers were priced, and the same with its reduces
    // placed again over the links (solve's shuffleAware, placement/shuffle-aware.ts).
    const plan = await solve(model, { strategy: s, timeBudgetMs: budget, seed: 1, transfers: 'ignored' });
    out.push(replay('plan:ls-ignored', plan));
    const sched = fromPlanDoc(model, plan);
    placeReducesOverLinks(model, sched);
    out.push(replay('plan:ls-links', { ...toPlanDoc(model, sched, 'ls'), ...(plan.placement ? { placement: plan.placement } : {}) }));
  }
  for (const r of out) console.log(`  ${r.approach.padEnd(14)} makespan ${r.makespanSeconds.toFixed(0).padStart(5)} s  latency ${r.meanLatencySeconds.toFixed(0).padStart(5)} s  remote ${r.remoteTaskPct.toFixed(1)}%`);
  return out;
}

function toRow(instance: string, approach: string, r: SimReport): Row {
  const unused: Record<string, number> = {};
  for (const [metric, series] of Object.entries(r.utilisation.used)) {
    const during = series.filter((_, n) => r.utilisation.seconds[n] < r.makespanSeconds);
    unused[metric] = during.length ? 1 - mean(during) : 0;
  }
  return {
    instance,
    approach,
    makespanSeconds: r.makespanSeconds,
    meanLatencySeconds: mean(r.jobs.map((j) => j.computeSeconds ?? NaN)),
    remoteTaskPct: r.remoteTaskPct,
    unfinishedJobs: r.unfinishedJobs,
    elapsedMs: r.elapsedMs,
    latencyByJob: Object.fromEntries(r.jobs.map((j) => [j.id, j.computeSeconds])),
    unused,
  };
}

/** The aco-bp policy (with slow start) with one parameter changed at a time: which of its choices costs what. */
function ablations(doc: InstanceDoc): Row[] {
  const model = loadInstance(doc);
  const variants: [string, Partial<typeof ACO_BP_DEFAULTS>][] = [
    ['aco-bp C_t 5 s', { periodSeconds: 5 }],
    ['aco-bp reduces anywhere', { reducePatiencePeriods: 0 }],
    ['aco-bp C_t 5 s, reduces anywhere', { periodSeconds: 5, reducePatiencePeriods: 0 }],
    ['aco-bp no RU threshold', { ruThreshold: 0 }],
    ['aco-bp reduces on the whole preferred rack', { reduceBinShare: 1 }],
  ];
  return variants.map(([name, change]) => {
    const r = new Simulator(model, new ActualUsage(model, undefined), new AcoBpPolicy(model, { ...ACO_BP_DEFAULTS, ...change }), {
      qos: getQos('none'),
      seed: 1,
      reduceSlowstart: SLOWSTART,
    }).run();
    console.log(`  ${name.padEnd(34)} makespan ${r.makespanSeconds.toFixed(0).padStart(5)} s`);
    return toRow(`${doc.name} (ablation)`, name, r);
  });
}

/** One decision at the start of the batch (every map ready, every node empty), 21 times. */
function decisionTimes(m: Model): { median: number; min: number; max: number } {
  const maps = m.stages.filter((s) => s.preds.length === 0);
  const times: number[] = [];
  for (let r = 0; r < 21; r++) {
    const bins = m.nodeIds.map((_, k) => ({ capacity: Float64Array.from(m.capacity[k]), used: new Float64Array(m.M), slotsLeft: Infinity }));
    const localCaps = bins.map(() => new Int32Array(maps.length));
    maps.forEach((s, j) => s.blocks?.forEach((reps) => reps.forEach((k) => localCaps[k][j]++)));
    const anyCaps = bins.map(() => Int32Array.from(maps, (s) => s.tasks));
    const total = new Float64Array(m.M);
    m.capacity.forEach((c) => c.forEach((v, i) => (total[i] += v)));
    const t0 = process.hrtime.bigint();
    decide({ bins, localCaps, anyCaps, pool: { demands: maps.map((s) => s.demand), remaining: Int32Array.from(maps, (s) => s.tasks), allocated: maps.map(() => new Float64Array(m.M)), total, activeJobs: maps.length } }, ACO_BP_DEFAULTS, new Random(r));
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return { median: median(times), min: Math.min(...times), max: Math.max(...times) };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

function report(
  result: { date: string; machine: ReturnType<typeof machineInfo>; seeds: number; scale: number; budgetMs: number; outputShare: [number, number]; decisionMs: { median: number; min: number; max: number }; rows: Row[] },
  paperName: string,
): string {
  const policies = [...POLICIES, ...POLICIES.map((p) => `${p} barrier`)];
  const priced = PLANS.map((s) => `plan:${s}`);
  const plans = [...priced, ...UNPRICED];
  const paperRows = result.rows.filter((r) => r.instance === paperName);
  const gen = result.rows.filter((r) => r.instance !== paperName && !r.instance.endsWith('(ablation)'));
  const ablation = result.rows.filter((r) => r.instance.endsWith('(ablation)'));
  const q = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const at = (f: number) => s[Math.min(s.length - 1, Math.floor(f * (s.length - 1)))];
    return `${at(0).toFixed(0)} / ${at(0.25).toFixed(0)} / ${at(0.5).toFixed(0)} / ${at(0.75).toFixed(0)} / ${at(1).toFixed(0)}`;
  };
  const pct = (x: number) => (100 * x).toFixed(0);
  const paperRow = (a: string) => paperRows.find((x) => x.approach === a)!;
  const jobs = Object.keys(paperRows[0].latencyByJob);
  const fig = ['fair', 'rws', 'hmjs', 'aco-bp'];
  const genTable = (approaches: string[]) =>
    table(
      ['approach', 'makespan (s)', 'mean job latency (s)', 'remote maps (%)'],
      approaches.map((a) => {
        const rs = gen.filter((x) => x.approach === a);
        return [a, q(rs.map((r) => r.makespanSeconds)), q(rs.map((r) => r.meanLatencySeconds)), q(rs.map((r) => r.remoteTaskPct))];
      }),
    );
  const instances = [...new Set(gen.map((r) => r.instance))];
  const at = (i: string, a: string) => gen.find((r) => r.instance === i && r.approach === a)!.makespanSeconds;
  // How often `a` beats `other` on makespan, instance by instance.
  const beats = (a: string, other: string) => instances.filter((i) => at(i, a) < at(i, other)).length;
  const wins = (other: string) => `${beats('aco-bp', other)} of ${instances.length}`;
  // Realised over planned makespan of each plan, on the generated instances.
  const ratios = (a: string) => gen.filter((r) => r.approach === a).map((r) => r.makespanSeconds / r.plannedMakespanSeconds!);
  const within = (xs: number[]) => xs.filter((x) => Math.abs(x - 1) <= 0.15).length;
  const q2 = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const f = (p: number) => s[Math.min(s.length - 1, Math.floor(p * (s.length - 1)))].toFixed(2);
    return `${f(0)} / ${f(0.25)} / ${f(0.5)} / ${f(0.75)} / ${f(1)}`;
  };
  const bestPolicy = (i: string) => policies.reduce((b, p) => (at(i, p) < at(i, b) ? p : b), policies[0]);
  const losses = instances.filter((i) => at(i, 'plan:ls') >= at(i, bestPolicy(i)));
  const lines = [
    '# ACO-BP comparison',
    '',
    runLine(result.date, result.machine, `npm run bench:acobp -- --seeds ${result.seeds} --scale ${result.scale} --budget-ms ${result.budgetMs}`),
    `Every approach runs in the same simulator with the same network model (10 Gbit/s in a rack, 1 Gbit/s between racks; 128 MB blocks, 3 replicas placed HDFS-style; map output 128 MB per map on the paper's set-up, ${result.outputShare[0]} to ${result.outputShare[1]} of the input per job on the generated instances;`,
    "each node's link full duplex: a transfer queues on the sender's uplink and the receiver's downlink and ends when the busier has carried it), no regular-customer load and no QoS controller, so the figures compare scheduling alone.",
    `Policies run with Hadoop's default reduce slow start (${SLOWSTART}: a reduce may launch once 5% of its job's maps ended and fetches each map's output as it ends,`,
    'as in the paper, whose batch has "reduce tasks of all other jobs ... scheduled during the execution of map tasks"), and again with the strict barrier (`barrier`).',
    `Plans (\`plan:\`, ${result.budgetMs} ms of solving each) are replayed as planned: their reduces start after their maps. Latency: end minus release.`,
    'Plans price transfers (docs/FORMAT.md, Transfers priced in plans: each task fetches its block and shuffle before it computes, the fetch padded by the links\' load); `plan:ls-ignored` is the ls plan made with compute alone (`transfers: "ignored"`), `plan:ls-links` the same with its reduces placed again over the links (`shuffleAware`).',
    'The simulator throttles the CPU metric `vcpu` as it does `cpu` (runs before 2026-11-28 left `vcpu` unthrottled, so a policy with 20 fixed slots per node ran them all at full speed on a 1-vCPU VM).',
    "Unused vCPU or memory below 0: the policy's containers reserve more than the VMs have (Hadoop's 20 fixed slots per node), the CPU then shared among them.",
    '',
    `## The paper's set-up (${paperName})`,
    '',
    '| approach | makespan (s) | mean job latency (s) | remote maps (%) | unused vCPU (%) | unused memory (%) | unfinished jobs |',
    '|---|---|---|---|---|---|---|',
    ...[...policies, ...plans].map((a) => {
      const r = paperRow(a);
      const planned = r.plannedMakespanSeconds !== undefined ? ` (planned ${r.plannedMakespanSeconds.toFixed(0)})` : '';
      return `| ${a} | ${r.makespanSeconds.toFixed(0)}${planned} | ${r.meanLatencySeconds.toFixed(0)} | ${r.remoteTaskPct.toFixed(1)} | ${pct(r.unused.vcpu ?? NaN)} | ${pct(r.unused.mem ?? NaN)} | ${r.unfinishedJobs} |`;
    }),
    '',
    'Job latency (s) per job, as the paper\'s Fig. 5 (slow start):',
    '',
    `| job | ${fig.join(' | ')} | plan:ls |`,
    `|---|${fig.map(() => '---|').join('')}---|`,
    ...jobs.map((j) => `| ${j} | ${[...fig, 'plan:ls'].map((a) => (paperRow(a).latencyByJob[j] ?? NaN).toFixed(0)).join(' | ')} |`),
    '',
    'The aco-bp policy (slow start) with one choice changed at a time (C_t: the decision period; reduces anywhere: no wait for the preferred rack\'s nodes):',
    '',
    '| variant | makespan (s) | mean job latency (s) | remote maps (%) |',
    '|---|---|---|---|',
    `| aco-bp as published | ${paperRow('aco-bp').makespanSeconds.toFixed(0)} | ${paperRow('aco-bp').meanLatencySeconds.toFixed(0)} | ${paperRow('aco-bp').remoteTaskPct.toFixed(1)} |`,
    ...ablation.map((r) => `| ${r.approach} | ${r.makespanSeconds.toFixed(0)} | ${r.meanLatencySeconds.toFixed(0)} | ${r.remoteTaskPct.toFixed(1)} |`),
    '',
    // --seeds 0 (the paper's set-up alone) has no generated instances to tabulate.
    ...(gen.length === 0
      ? []
      : [
          `## ${result.seeds} generated instances (${result.scale}x the tasks, counts and latencies within 20%): min / q1 / median / q3 / max`,
          '',
          ...genTable([...policies, ...plans]),
          '',
          `ACO-BP (slow start) has the shorter makespan than FS on ${wins('fair')} instances, than RWS on ${wins('rws')}, than HMJS on ${wins('hmjs')}, than FS without delay on ${wins('fair-nodelay')}, than ls's plan on ${wins('plan:ls')}.`,
          '',
          '### Planned against realised',
          '',
          'Realised over planned makespan per plan (the simulator replaying it): min / q1 / median / q3 / max, and on how many instances it is within 15 %:',
          '',
          ...table(
            ['plan', 'realised / planned', 'within 15 %'],
            plans.map((a) => [a, q2(ratios(a)), `${within(ratios(a))} of ${ratios(a).length}`]),
          ),
          '',
          '### The priced ls plan against each policy',
          '',
          ...table(
            ['policy', 'slow start: ls plan shorter on', 'barrier: ls plan shorter on'],
            POLICIES.map((p) => [p, `${beats('plan:ls', p)} of ${instances.length}`, `${beats('plan:ls', `${p} barrier`)} of ${instances.length}`]),
          ),
          '',
          losses.length === 0
            ? `The priced ls plan's realised makespan is the shortest of all on every one of the ${instances.length} instances.`
            : `Instances where a policy realises a makespan at most the priced ls plan's: ${losses.map((i) => `${i} (ls ${at(i, 'plan:ls').toFixed(0)} s, ${bestPolicy(i)} ${at(i, bestPolicy(i)).toFixed(0)} s)`).join('; ')}.`,
          '',
        ]),
    '## One ACO-BP decision',
    '',
    `All windows of 10 bins for 100 VMs and 6 jobs at the start of the batch: median ${result.decisionMs.median.toFixed(1)} ms (min ${result.decisionMs.min.toFixed(1)}, max ${result.decisionMs.max.toFixed(1)}, 21 runs; the first includes JIT warm-up).`,
    '',
  ];
  return lines.join('\n');
}

if (require.main === module) runEntry(COMMAND, main);
