/**
 * One scenario of the re-planning experiment (bench/replan.ts, issue 39 part 5): a generated ephemeral instance
 * (harness/ephemeral-instance.ts: heterogeneous nodes, a diurnal forecast, MapReduce jobs with deadlines and
 * revenue), made finer and tighter, the actual load it runs against (the forecast missed: noise, a bias per
 * node and bursts), and the nodes lost on the way. Every draw comes from the scenario's seed.
 */
import type { InstanceDoc } from '../../src/engine/model/types';
import { Random } from '../../src/engine/random';
import type { Outage, UsageDoc } from '../../src/engine/simulation';
import { ephemeralInstance } from '../../harness/ephemeral-instance';

export interface ScenarioOptions {
  seed: number;
  nodes: number;
  jobs: number;
  maxMaps: number;
  /** Slots of the generator's 300 s are cut into this many (300 / refine s each): plans lose less to rounding up. */
  refine: number;
  /** A job's deadline is its release plus a draw in [min, max] times its critical path on the fastest node. */
  deadlineSlack: [number, number];
  /** Nodes lost per scenario (each at a random time of the first half of `lossWindowSeconds`, for 30 min to 2 h or for good). */
  losses: number;
  /** Where losses fall: [0, lossWindowSeconds / 2) (about the static plan's makespan). */
  lossWindowSeconds: number;
  /** Share of losses for good (never back within the run). */
  lostForGood: number;
  /** The actual load is the forecast (the losses alone): an ablation. */
  noMisses?: boolean;
}

export interface Scenario {
  doc: InstanceDoc;
  actual: UsageDoc;
  outages: Outage[];
  /** What was injected, for the report. */
  injected: { bursts: number; meanAbsErrorCpu: number; meanAbsErrorRam: number };
}

const GENERATOR_SLOT_SECONDS = 300;

/**
 * Everything is drawn on the generator's 300-s grid, each part from a stream of its own (the instance is the
 * generator's for the seed whatever is injected, and `refine` changes nothing but the slots' length).
 */
export function scenario(o: ScenarioOptions): Scenario {
  const base = ephemeralInstance({ nodes: o.nodes, jobs: o.jobs, seed: o.seed, maxMaps: o.maxMaps, slots: 96, slotSeconds: GENERATOR_SLOT_SECONDS });
  const stream = (salt: number) => new Random(((o.seed * 2654435761) ^ salt) >>> 0);
  const { actual: coarse, bursts } = missedForecast(base, stream(0x7e91a));
  const outages = losses(base, stream(0x1055), o);
  const doc = refine(base, o.refine);
  tightenDeadlines(doc, stream(0xdead1), o.deadlineSlack);
  const actual = o.noMisses ? refineUsage(base.usage ?? {}, o.refine) : refineUsage(coarse, o.refine);
  return { doc, actual, outages, injected: { bursts, meanAbsErrorCpu: meanAbsError(doc, actual, 'cpu'), meanAbsErrorRam: meanAbsError(doc, actual, 'ram') } };
}

/** The same instance on slots `f` times shorter: the forecast repeated, releases and deadlines scaled. */
function refine(doc: InstanceDoc, f: number): InstanceDoc {
  return {
    ...doc,
    name: `${doc.name}-x${f}`,
    horizon: { slots: doc.horizon.slots * f, slotSeconds: doc.horizon.slotSeconds / f },
    usage: refineUsage(doc.usage ?? {}, f),
    jobs: doc.jobs.map((j) => ({ ...j, releaseSlot: (j.releaseSlot ?? 0) * f, ...(j.deadlineSlot !== undefined ? { deadlineSlot: j.deadlineSlot * f } : {}) })),
    provenance: { generator: 'harness/ephemeral-instance.ts', refinedBy: f, by: 'bench/replan/scenario.ts' },
  };
}

function refineUsage(usage: UsageDoc, f: number): UsageDoc {
  const out: UsageDoc = {};
  for (const [n, per] of Object.entries(usage)) {
    out[n] = {};
    for (const [m, s] of Object.entries(per)) out[n][m] = s.flatMap((v) => Array<number>(f).fill(v));
  }
  return out;
}

/**
 * Deadlines the cluster can miss: release + slack x the job's critical path on the fastest node (its map, then
 * its reduce), the slack drawn per job; within the window. The generator's own (60 % to 100 % of the window) are
 * met by every approach here.
 */
function tightenDeadlines(doc: InstanceDoc, rng: Random, [lo, hi]: [number, number]): void {
  const S = doc.horizon.slotSeconds;
  const fastest = Math.max(...doc.nodes.map((n) => n.speed ?? 1));
  for (const job of doc.jobs) {
    const path = job.stages.reduce((sum, s) => sum + (s.work !== undefined ? s.work / fastest : (s.durationSeconds ?? 0)), 0);
    const slack = lo + (hi - lo) * rng.next();
    job.deadlineSlot = Math.min(doc.horizon.slots - 1, (job.releaseSlot ?? 0) + Math.ceil((slack * path) / S));
  }
}

/**
 * The regular customers' actual load: the forecast with a bias per node and metric (±0.08), noise (σ 0.04 per
 * 5-minute slot) and, on about half the nodes, one or two bursts of +0.25 to +0.45 for 10 to 40 minutes on CPU
 * and RAM together (what a forecast at the median misses); clamped to [0, 1].
 */
function missedForecast(doc: InstanceDoc, rng: Random): { actual: UsageDoc; bursts: number } {
  const S = doc.horizon.slotSeconds;
  const T = doc.horizon.slots;
  const actual: UsageDoc = {};
  let bursts = 0;
  for (const n of doc.nodes) {
    const extra = new Float64Array(T);
    const count = rng.next() < 0.5 ? 1 + rng.int(2) : 0;
    for (let b = 0; b < count; b++) {
      const from = rng.int(T);
      const len = Math.ceil((600 + rng.next() * 1800) / S);
      const height = 0.25 + 0.2 * rng.next();
      for (let t = from; t < Math.min(T, from + len); t++) extra[t] += height;
      bursts++;
    }
    actual[n.id] = {};
    for (const m of doc.metrics) {
      const bias = 0.16 * (rng.next() - 0.5);
      const forecast = doc.usage?.[n.id]?.[m] ?? [];
      actual[n.id][m] = Array.from({ length: T }, (_, t) => round3(clamp((forecast[t] ?? 0) + bias + 0.04 * rng.gaussian() + extra[t])));
    }
  }
  return { actual, bursts };
}

/** `losses` distinct nodes lost at a random time of [0, lossWindow / 2), back 30 min to 2 h later or never. */
function losses(doc: InstanceDoc, rng: Random, o: ScenarioOptions): Outage[] {
  const ids = rng.shuffle(doc.nodes.map((n) => n.id)).slice(0, Math.min(o.losses, doc.nodes.length - 1));
  return ids.map((node) => {
    const fromSeconds = Math.round(rng.next() * (o.lossWindowSeconds / 2));
    const forGood = rng.next() < o.lostForGood;
    return forGood ? { node, fromSeconds } : { node, fromSeconds, toSeconds: fromSeconds + Math.round(1800 + rng.next() * 5400) };
  });
}

function meanAbsError(doc: InstanceDoc, actual: UsageDoc, metric: string): number {
  let sum = 0;
  let n = 0;
  for (const node of doc.nodes) {
    const f = doc.usage?.[node.id]?.[metric] ?? [];
    const a = actual[node.id]?.[metric] ?? [];
    for (let t = 0; t < doc.horizon.slots; t++) (sum += Math.abs((a[t] ?? 0) - (f[t] ?? 0))), n++;
  }
  return n > 0 ? round3(sum / n) : 0;
}

const clamp = (x: number) => Math.min(1, Math.max(0, x));
const round3 = (x: number) => Math.round(x * 1000) / 1000;
