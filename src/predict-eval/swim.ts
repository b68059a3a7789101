import { loadInstance, Model } from '../engine/model/model';
import { InstanceDoc, JobSpec, NodeSpec } from '../engine/model/types';
import { basic, detailed, emptyStats, PredictorChoice, mergeStats, predictDurations, StageEvidence, StageQuery, StageStats, standard, statsOf, TaskRun, TenantHistory } from '../engine/predict';
import { FairPolicy } from '../engine/policies/fair/fair';
import { getQos } from '../engine/qos';
import { Random } from '../engine/random';
import { simulatePlan } from '../engine/simulation';
import { Simulator } from '../engine/simulate/simulator';
import type { SimulatorView } from '../engine/simulate/host';
import { ActualUsage } from '../engine/simulate/usage';
import { solve } from '../engine/solve';
import { Accuracy, AccuracyTable } from './accuracy';
import { bucketOf, HISTORY_BUCKETS } from './alibaba';

/**
 * POSUM's evaluation where the truth is known: jobs with the data sizes of SWIM's Facebook trace (map
 * input, shuffle bytes) run through Fallow's simulator on a heterogeneous cluster (node speeds 0.5-2,
 * two racks, remote reads and shuffles over the network, reduces started early), and every task's
 * runtime is predicted at its launch from what had ended by then, as an online scheduler would ask.
 *
 * How a job's tasks are made (the choices a trace of sizes leaves open):
 * - maps: one per 128 MB of input (at most `maxMaps`), each reading input / maps; reduces: one per GB of
 *   shuffle (1 to `maxReduces`; none when the job shuffles nothing). Each map writes its share of the
 *   shuffle bytes (the job's selectivity).
 * - work: seconds per MB at speed 1 set by the job's map class and reduce class (8 of each, a lognormal
 *   spread of rates), times a per-task lognormal factor (runtimeSigma). The customer (one of 4) and the
 *   classes are drawn from the seed; a customer favours 2 map classes.
 * - the merge phase is not modelled (a reduce computes once its shuffle ended): the detailed predictor's
 *   merge rate is 0 here.
 */
export interface SwimJob {
  id: string;
  submitSeconds: number;
  inputBytes: number;
  shuffleBytes: number;
}

export function parseSwim(tsv: string): SwimJob[] {
  return tsv
    .split(/\r?\n/)
    .filter((l) => l.trim().length > 0)
    .map((l) => l.split('\t'))
    .map((f) => ({ id: f[0], submitSeconds: Number(f[1]), inputBytes: Number(f[3]), shuffleBytes: Number(f[4]) }))
    .filter((j) => Number.isFinite(j.submitSeconds) && j.inputBytes > 0);
}

export interface SwimOptions {
  seed: number;
  jobs: number;
  maxMaps: number;
  maxReduces: number;
  runtimeSigma: number;
}

export const SWIM_DEFAULTS: SwimOptions = { seed: 1, jobs: 200, maxMaps: 200, maxReduces: 10, runtimeSigma: 0.2 };

const MB = 1e6;
const MAP_CLASSES = 8;
const CUSTOMERS = 4;

interface Workload {
  doc: InstanceDoc;
  /** Per job (instance order): customer, classes and map input bytes per task. */
  meta: { customer: string; mapClass: string; reduceClass: string; mapBytes: number; reduceBytes: number }[];
}

/** A heterogeneous cluster: 24 nodes of 8 cores, speeds 0.5 to 2, two racks, 10 / 1 Gbit/s. */
function cluster(rng: Random): NodeSpec[] {
  const speeds = [0.5, 1, 1.5, 2];
  return Array.from({ length: 24 }, (_, k) => ({ id: `n${k}`, rack: `r${k % 2}`, capacity: { cpu: 8, ram: 32 }, speed: speeds[rng.int(speeds.length)] }));
}

/** The first `count` SWIM jobs (released at their submit times, compressed 20x) as one workload. */
export function swimWorkload(trace: SwimJob[], o: SwimOptions): Workload {
  const rng = new Random(o.seed);
  const nodes = cluster(rng);
  const lognormal = (sigma: number) => Math.exp(sigma * rng.gaussian());
  const mapRate = Array.from({ length: MAP_CLASSES }, () => 0.02 * lognormal(0.6)); // s per MB at speed 1
  const reduceRate = Array.from({ length: MAP_CLASSES }, () => 0.01 * lognormal(0.6));
  const favourite = Array.from({ length: CUSTOMERS }, () => [rng.int(MAP_CLASSES), rng.int(MAP_CLASSES)]);
  const picked = trace.slice(0, o.jobs);
  const t0 = picked.length ? picked[0].submitSeconds : 0;
  const meta: Workload['meta'] = [];
  const replicas = (): string[] => {
    const a = rng.int(nodes.length);
    let b = rng.int(nodes.length);
    while (nodes[b].rack === nodes[a].rack) b = rng.int(nodes.length);
    let c = rng.int(nodes.length);
    while (c === b || nodes[c].rack !== nodes[b].rack) c = rng.int(nodes.length);
    return [nodes[a].id, nodes[b].id, nodes[c].id];
  };
  const jobs: JobSpec[] = picked.map((j, n) => {
    const c = rng.int(CUSTOMERS);
    const cls = rng.next() < 0.8 ? favourite[c][rng.int(2)] : rng.int(MAP_CLASSES);
    const maps = Math.min(o.maxMaps, Math.max(1, Math.ceil(j.inputBytes / (128 * MB))));
    const mapBytes = j.inputBytes / maps;
    const f = j.shuffleBytes / j.inputBytes;
    const reduces = j.shuffleBytes > 0 ? Math.min(o.maxReduces, Math.max(1, Math.ceil(j.shuffleBytes / 1e9))) : 0;
    const reduceBytes = reduces ? (f * mapBytes * maps) / reduces : 0;
    meta.push({ customer: `c${c}`, mapClass: `M${cls}`, reduceClass: `R${cls}`, mapBytes, reduceBytes });
    const stages: JobSpec['stages'] = [
      { id: 'map', tasks: maps, demand: { cpu: 1, ram: 2 }, work: (mapBytes / MB) * mapRate[cls], inputMB: mapBytes / MB, outputMB: (f * mapBytes) / MB, blocks: Array.from({ length: maps }, replicas) },
    ];
    if (reduces) stages.push({ id: 'reduce', tasks: reduces, demand: { cpu: 1, ram: 4 }, after: ['map'], work: Math.max(0.1, (reduceBytes / MB) * reduceRate[cls]) });
    return { id: `${j.id}-${n}`, customer: `c${c}`, mapClass: `M${cls}`, reduceClass: `R${cls}`, releaseSlot: Math.floor((j.submitSeconds - t0) / 20 / 10), stages };
  });
  const horizon = { slots: 100_000, slotSeconds: 10 };
  return { doc: { format: 'fallow.instance/v1', name: `swim-${o.seed}`, horizon, metrics: ['cpu', 'ram'], nodes, network: { intraRackMbps: 10_000, interRackMbps: 1_000 }, jobs }, meta };
}

/** One simulated task as an execution event pair would report it. */
interface Observed {
  job: number;
  kind: 'map' | 'reduce';
  start: number;
  end: number;
  run: TaskRun;
}

function observe(model: Model, sim: SimulatorView, meta: Workload['meta']): Observed[] {
  // When each stage's last task ended: a reduce launched before its job's maps all ended is first-wave.
  const stageEnd = model.stages.map((s) => Math.max(...Array.from({ length: s.tasks }, (_, t) => sim.endTime[s.firstTask + t])));
  const out: Observed[] = [];
  for (let i = 0; i < model.nTasks; i++) {
    if (sim.endTime[i] < 0) continue;
    const s = model.stages[model.taskStage[i]];
    const kind = s.preds.length ? 'reduce' : 'map';
    const start = sim.startedAt[i];
    const end = sim.endTime[i];
    const run: TaskRun =
      kind === 'map'
        ? {
            runtimeSeconds: end - start,
            inputBytes: meta[s.job].mapBytes,
            outputBytes: s.inputMB > 0 ? (meta[s.job].mapBytes * s.outputMB) / s.inputMB : 0,
            locality: !sim.remote[i] ? 'node' : sameRack(model, sim, i) ? 'rack' : 'remote',
          }
        : {
            runtimeSeconds: end - start,
            inputBytes: meta[s.job].reduceBytes,
            shuffleSeconds: sim.computeStartedAt[i] - start,
            mergeSeconds: 0,
            reduceSeconds: end - sim.computeStartedAt[i],
            firstWave: start < stageEnd[s.preds[0]],
          };
    out.push({ job: s.job, kind, start, end, run });
  }
  return out;
}

function sameRack(model: Model, sim: SimulatorView, i: number): boolean {
  const k = sim.node[i];
  return (sim.replicas[i] ?? []).some((r) => model.racks[r] === model.racks[k]);
}

export interface SwimResult {
  jobs: number;
  tasks: number;
  makespanSeconds: number;
  /** predictor -> bucket ('all', 'map', 'reduce', and the classes' history: '0', '1', '2-4', '5-9', '10+' earlier jobs) -> accuracy. */
  accuracy: Record<string, Record<string, Accuracy>>;
}

/**
 * Runs the workload under the Fair Scheduler (delay scheduling, reduce slow start 0.05) and scores every
 * task's runtime predicted at its launch: from its job's tasks of the same stage that had ended by then,
 * else from the earlier jobs that had ended (20 most recent of the class; of the customer for basic),
 * against the mean of every task ended by then. Detailed knows where the map was launched (local or not)
 * and whether the reduce started before its maps ended (first wave), as the scheduler asking would.
 */
export function evaluateSwim(trace: SwimJob[], o: SwimOptions = SWIM_DEFAULTS): SwimResult {
  const w = swimWorkload(trace, o);
  const model = loadInstance(w.doc);
  const sim = new Simulator(model, new ActualUsage(model, undefined), new FairPolicy(model), {
    qos: getQos('none'),
    seed: o.seed,
    reduceSlowstart: 0.05,
    runtimeTruth: { runtimeSigma: o.runtimeSigma },
    maxWindows: 1,
  });
  const report = sim.run();
  const tasks = observe(model, sim, w.meta);
  const table = new AccuracyTable();
  // Jobs by the time their last task ended: the history a prediction at time t may use.
  const jobEnd = new Float64Array(model.jobs.length).fill(Infinity);
  const byJob = model.jobs.map(() => ({ map: [] as TaskRun[], reduce: [] as TaskRun[] }));
  for (const t of tasks) byJob[t.job][t.kind].push(t.run);
  model.jobs.forEach((job, j) => {
    let end = 0;
    for (let i = job.firstTask; i < job.firstTask + job.taskCount; i++) end = Math.max(end, sim.endTime[i] < 0 ? Infinity : sim.endTime[i]);
    jobEnd[j] = end;
  });
  const jobStats = byJob.map((b) => ({ map: statsOf(b.map), reduce: statsOf(b.reduce) }));
  const order = model.jobs.map((_, j) => j).sort((a, b) => jobEnd[a] - jobEnd[b]);
  const ended = [...tasks].sort((a, b) => a.end - b.end);
  let globalSum = 0;
  let globalN = 0;
  let g = 0;
  for (const t of [...tasks].sort((a, b) => a.start - b.start)) {
    while (g < ended.length && ended[g].end <= t.start) (globalSum += ended[g].run.runtimeSeconds), globalN++, g++;
    const meta = w.meta[t.job];
    const past = order.filter((j) => j !== t.job && jobEnd[j] <= t.start);
    const recent = (keep: (j: number) => boolean) => {
      let s: StageStats | null = null;
      let n = 0;
      for (let x = past.length - 1; x >= 0 && n < 20; x--) {
        if (!keep(past[x])) continue;
        s = mergeStats(s ?? emptyStats(), jobStats[past[x]][t.kind]);
        n++;
      }
      return { s, n };
    };
    const byClass = recent((j) => (t.kind === 'map' ? w.meta[j].mapClass === meta.mapClass : w.meta[j].reduceClass === meta.reduceClass));
    const byCustomer = recent((j) => w.meta[j].customer === meta.customer);
    const current = statsOf(tasks.filter((o2) => o2.job === t.job && o2.kind === t.kind && o2.end <= t.start).map((o2) => o2.run));
    const own: StageEvidence = { current, byClass: byClass.s, byCustomer: byCustomer.s };
    const mapsEvidence: StageEvidence = {
      current: statsOf(tasks.filter((o2) => o2.job === t.job && o2.kind === 'map' && o2.end <= t.start).map((o2) => o2.run)),
      byClass: recent((j) => w.meta[j].mapClass === meta.mapClass).s,
      byCustomer: byCustomer.s,
    };
    const q: StageQuery = { kind: t.kind, tasks: 1, inputBytesPerTask: t.run.inputBytes ?? null, mapInputBytes: null, own, maps: t.kind === 'reduce' ? mapsEvidence : null };
    const buckets = [t.kind, bucketOf(byClass.n)];
    for (const b of buckets) table.ask(b);
    const truth = t.run.runtimeSeconds;
    const d = detailed(q);
    let det: number | null = d?.seconds ?? null;
    if (d && t.kind === 'map' && t.run.locality !== 'node') det = d.alternativeSeconds ?? null;
    if (d && t.kind === 'reduce' && t.run.firstWave) det = d.alternativeSeconds ?? d.seconds;
    for (const b of buckets) {
      table.add('global-mean', b, globalN ? globalSum / globalN : null, truth);
      table.add('basic', b, basic(q)?.seconds ?? null, truth);
      table.add('standard', b, standard(q)?.seconds ?? null, truth);
      table.add('detailed', b, det, truth);
    }
  }
  return {
    jobs: model.jobs.length,
    tasks: tasks.length,
    makespanSeconds: Math.round(report.makespanSeconds),
    accuracy: table.result(['global-mean', 'basic', 'standard', 'detailed'], ['map', 'reduce', ...HISTORY_BUCKETS]),
  };
}

export interface Replay {
  makespanSeconds: number;
  deadlineMisses: number;
  relaunches: number;
  rejectedJobs: number;
  plannedMakespanSeconds: number;
}

export interface PlanQualityResult {
  jobs: number;
  /** Replayed against the truth: the plan solved on true durations, and on durations each predictor gave. */
  truth: Replay;
  predicted: Record<string, Replay & { medianApe: number; p90Ape: number }>;
}

/**
 * How much a plan suffers from predicted durations: the last `batch` jobs of the workload, on a cluster of
 * one speed, solved by `ls` with their true durations and with durations predicted (auto) from the runs of
 * the jobs before them; both plans replayed against the truth (the same runtime spread) with Salamander's
 * QoS, so a task that overruns its planned slot shares its node and may be killed. Deadlines: release plus
 * twice the job's true critical path.
 */
export async function planQuality(trace: SwimJob[], o: SwimOptions = SWIM_DEFAULTS, batch = 12, budgetMs = 2000, predictors: PredictorChoice[] = ['basic', 'standard', 'detailed', 'auto']): Promise<PlanQualityResult> {
  const w = swimWorkload(trace, o);
  w.doc.nodes = w.doc.nodes.map((n) => ({ ...n, speed: 1 }));
  const model = loadInstance(w.doc);
  const sim = new Simulator(model, new ActualUsage(model, undefined), new FairPolicy(model), { qos: getQos('none'), seed: o.seed, runtimeTruth: { runtimeSigma: o.runtimeSigma }, maxWindows: 1 });
  sim.run();
  const tasks = observe(model, sim, w.meta);
  const cut = Math.max(0, model.jobs.length - batch);
  const history: TenantHistory = { byMapClass: new Map(), byReduceClass: new Map(), recentMaps: null, recentReduces: null };
  const add = (map: Map<string, StageStats>, key: string, s: StageStats) => map.set(key, mergeStats(map.get(key) ?? emptyStats(), s));
  for (let j = 0; j < cut; j++) {
    const maps = statsOf(tasks.filter((t) => t.job === j && t.kind === 'map').map((t) => t.run));
    const reduces = statsOf(tasks.filter((t) => t.job === j && t.kind === 'reduce').map((t) => t.run));
    add(history.byMapClass, w.meta[j].mapClass, maps);
    add(history.byReduceClass, w.meta[j].reduceClass, reduces);
    history.recentMaps = mergeStats(history.recentMaps ?? emptyStats(), maps);
    history.recentReduces = mergeStats(history.recentReduces ?? emptyStats(), reduces);
  }
  // The batch: its jobs released from slot 0, with true durations (seconds at speed 1) and deadlines.
  const jobs = w.doc.jobs.slice(cut).map((j) => {
    const path = j.stages.reduce((a, s) => a + (s.work ?? 0), 0);
    return { ...j, releaseSlot: 0, deadlineSlot: Math.ceil((2 * path) / w.doc.horizon.slotSeconds) + 6 };
  });
  const truthDoc: InstanceDoc = { ...w.doc, name: 'batch-truth', horizon: { slots: 2000, slotSeconds: 10 }, jobs: jobs.map((j) => ({ ...j, stages: j.stages.map((s) => ({ ...s, durationSeconds: s.work, work: undefined })) })) };
  const blank = { ...truthDoc, name: 'batch-predicted', jobs: truthDoc.jobs.map((j) => ({ ...j, stages: j.stages.map((s) => ({ ...s, durationSeconds: undefined })) })) };
  const trueSeconds: Record<string, Record<string, number>> = Object.fromEntries(truthDoc.jobs.map((j) => [j.id, Object.fromEntries(j.stages.map((s) => [s.id, s.durationSeconds!]))]));
  const run = async (doc: InstanceDoc, truth: Record<string, Record<string, number>> | undefined): Promise<Replay> => {
    const m = loadInstance(doc);
    const plan = await solve(m, { strategy: 'ls', timeBudgetMs: budgetMs, seed: o.seed });
    const r = simulatePlan(m, plan, { qos: 'salamander', seed: o.seed, runtimeTruth: { trueSeconds: truth, runtimeSigma: o.runtimeSigma } });
    const planned = plan.objective.makespanSlots * doc.horizon.slotSeconds;
    return { makespanSeconds: Math.round(r.makespanSeconds), deadlineMisses: r.deadlineMisses, relaunches: r.relaunches, rejectedJobs: r.rejectedJobs, plannedMakespanSeconds: planned };
  };
  const predicted: PlanQualityResult['predicted'] = {};
  for (const choice of predictors) {
    const filled = predictDurations(blank, history, choice);
    const doc = filled.doc as InstanceDoc;
    // A stage the predictor cannot say anything about gets 60 s: a customer's guess.
    for (const st of doc.jobs.flatMap((j) => j.stages)) if (st.durationSeconds === undefined) st.durationSeconds = 60;
    const apes = filled.predictions.map((p) => (100 * Math.abs(p.durationSeconds - trueSeconds[p.job][p.stage])) / trueSeconds[p.job][p.stage]).sort((a, b) => a - b);
    const at = (q: number) => Math.round(10 * (apes[Math.min(apes.length - 1, Math.floor(q * apes.length))] ?? NaN)) / 10;
    predicted[choice] = { ...(await run(doc, trueSeconds)), medianApe: at(0.5), p90Ape: at(0.9) };
  }
  return { jobs: jobs.length, truth: await run(truthDoc, undefined), predicted };
}
