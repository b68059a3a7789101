/**
 * A data centre of operator size (issue 40): one of the Salamander / Cuckoo data centres (Table II: PC-1, PC-2,
 * University) replicated until it has about `nodes` hosts, every host under its own regular customer's load, and
 * `tasks` MapReduce tasks with SWIM Facebook job sizes. It follows ../shared/tools/gen-instance.py `ephemeral`
 * (the host configurations, FLOP per byte, RAM per task, 20 task slots a node, 24 h of 180-s slots, the load scaled
 * so that the job set needs `load` times the average free task capacity, 30 % deadline jobs), and adds the size:
 * - Hosts: the data centre's configurations drawn once per seed, then replicated; replica r's hosts sit in their
 *   own racks (`r<r>-<1..3>`), as a data centre grows by rows.
 * - Load: each host replays a Bitbrains VM trace (`<data>/bitbrains-rnd/2013-7/*.csv`) from its own seed-drawn
 *   offset, so two hosts on the same VM file are shifted in time ("shifted real load"). Without the data, a
 *   diurnal sine with noise and spikes per host (provenance says which).
 * - Load: below `load` when reaching it would make a map longer than a twelfth of the window (few tasks on
 *   many nodes); `provenance.load` is the load reached.
 * - Jobs: (map input, shuffle) bytes drawn from `<data>/swim-facebook/FB-2009_samples_24_times_1hr_0.tsv`
 *   (inputs of at least one chunk); without the data, lognormal sizes of the same order.
 * Deterministic for a seed and the same data. Never writes anything; bench/ and test/ decide where `data` is.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseBitbrainsVm } from '../src/engine/forecast/bitbrains';
import { InstanceDoc, JobSpec, NodeSpec } from '../src/engine/model/types';
import { Random } from '../src/engine/random';
import { parseSwim } from '../src/predict-eval/swim';
import { hdfsReplicas } from './hdfs-replicas';

export type DataCentre = 'pc1' | 'pc2' | 'univ';

/** Hosts, distinct configurations, total GFLOP/s and total RAM (GB) of one copy (gen-instance.py's DC table). */
const DATA_CENTRES: Record<DataCentre, { hosts: number; configs: number; gflops: number; ramGB: number }> = {
  pc1: { hosts: 9, configs: 6, gflops: 2208, ramGB: 1200 },
  pc2: { hosts: 27, configs: 13, gflops: 3552, ramGB: 3800 },
  univ: { hosts: 6, configs: 6, gflops: 1363, ramGB: 1500 },
};

export interface ScaleOptions {
  dc?: DataCentre;
  /** Hosts wanted: the data centre is replicated ceil(nodes / hosts) times and cut to this many (default 999). */
  nodes?: number;
  /** Tasks in all (default 100,000). */
  tasks?: number;
  /** Work per task scaled so that the jobs need this multiple of the average free task capacity (default 0.25). */
  load?: number;
  /** Largest map stage (default 640, as gen-instance.py). */
  maxMaps?: number;
  slots?: number;
  slotSeconds?: number;
  /** Share of deadline jobs (default 0.3). */
  deadlines?: number;
  seed?: number;
  /** ../shared/data (Bitbrains and SWIM); absent or missing files: synthetic load and sizes. */
  dataDir?: string;
  /**
   * Read every host's trace this many 5-minute samples later (288: the next day), all else the same: the actual
   * load of a run planned on the instance made without it (its forecast). With synthetic load: the next day of
   * the same sine, with its own noise and spikes.
   */
  usageShiftSamples?: number;
  /**
   * Data to move (default false: compute alone, as every figure before it): each map reads its 128-MB chunk from
   * three replicas placed as HDFS places them (one node, a second in another rack, a third in the second's rack)
   * and writes its share of the job's SWIM shuffle bytes, which the reduces read over the nodes' links
   * (bandwidthMbps 50): a solve then prices every fetch (docs/FORMAT.md). Drawn from a stream of its own, so
   * nodes, load, jobs and deadlines are the same with and without it.
   */
  transfers?: boolean;
}

const CHUNK_MB = 128;
const CHUNK_BYTES = CHUNK_MB * 2 ** 20;
const MAP_GFLOP = (CHUNK_BYTES * 3100) / 1e9;
const REDUCE_GFLOP = (CHUNK_BYTES * 6300) / 1e9;
const TASK_SLOTS = 20;
const SAFETY = 0.05;
const SAMPLE_SECONDS = 300;
/** A map on the average node takes at most 1/MAX_MAP_SHARE_INV of the window. */
const MAX_MAP_SHARE_INV = 12;

interface UtilTrace {
  name: string;
  cpu: ArrayLike<number>;
  ram: ArrayLike<number>;
}

export function scaleInstance(o: ScaleOptions = {}): InstanceDoc {
  const { dc = 'pc2', nodes: wanted = 999, tasks = 100_000, load = 0.25, maxMaps = 640, slots: T = 480, slotSeconds = 180, deadlines = 0.3, seed = 1 } = o;
  const rng = new Random(seed);
  const spec = DATA_CENTRES[dc];
  const configs = Array.from({ length: spec.configs }, () => ({ cores: rng.pick([8, 12, 16, 24, 32]), gflopsPerCore: 4 + 8 * rng.next(), ramGB: rng.pick([64, 96, 128, 192, 256]) }));
  const copy = [...configs, ...Array.from({ length: spec.hosts - spec.configs }, () => rng.pick(configs))];
  const gsum = copy.reduce((s, c) => s + c.cores * c.gflopsPerCore, 0);
  const rsum = copy.reduce((s, c) => s + c.ramGB, 0);
  const samplesNeeded = Math.ceil((T * slotSeconds) / SAMPLE_SECONDS) + 1;
  const traces = bitbrainsTraces(o.dataDir, samplesNeeded);

  const nodeList: NodeSpec[] = [];
  const usage: Record<string, Record<string, number[]>> = {};
  const utilisation: { cpu: number; ram: number }[] = [];
  for (let k = 0; k < wanted; k++) {
    const replica = Math.floor(k / spec.hosts);
    const c = copy[k % spec.hosts];
    const id = `${dc}-r${replica + 1}-h${String((k % spec.hosts) + 1).padStart(2, '0')}`;
    nodeList.push({
      id,
      rack: `r${replica + 1}-${(k % 3) + 1}`,
      flavor: `cfg${configs.indexOf(c) + 1}`,
      capacity: { cpu: c.cores, ram: round((c.ramGB * spec.ramGB) / rsum, 1) },
      speed: round((c.gflopsPerCore * spec.gflops) / gsum, 3), // GFLOP/s of a core, the data centre's total kept
      maxTasks: TASK_SLOTS,
      bandwidthMbps: 50,
    });
    const loadOn = traces ? traceLoad(traces, rng, T, slotSeconds, samplesNeeded) : syntheticLoad(rng, T, slotSeconds);
    // The work per task is set from the unshifted day's load, so that the next day differs in load alone.
    const planned = loadOn(0);
    usage[id] = o.usageShiftSamples ? loadOn(o.usageShiftSamples) : planned;
    utilisation.push({ cpu: mean(planned.cpu), ram: mean(planned.ram) });
  }

  const sizes = swimSizes(o.dataDir);
  const jobs: { maps: number; reduces: number; shuffle: number }[] = [];
  for (let total = 0; total < tasks; ) {
    const [input, shuffle] = sizes ? rng.pick(sizes) : syntheticSize(rng);
    let maps = Math.min(maxMaps, Math.max(1, Math.ceil(input / CHUNK_BYTES)));
    let reduces = Math.min(40, Math.max(1, Math.ceil(shuffle / 2 ** 30)));
    if (total + maps + reduces > tasks) {
      maps = Math.max(1, tasks - total - reduces);
      reduces = Math.max(1, Math.min(reduces, tasks - total - maps));
    }
    jobs.push({ maps, reduces, shuffle });
    total += maps + reduces;
  }

  // Work per task: the job set needs `load` times the average free task capacity of the window.
  const avgSpeed = nodeList.reduce((s, n) => s + (n.speed ?? 1), 0) / nodeList.length;
  const taskSeconds = jobs.reduce((s, j) => s + (j.maps * MAP_GFLOP + j.reduces * REDUCE_GFLOP) / avgSpeed, 0);
  const freeTasks = nodeList.reduce((s, n, k) => {
    const u = utilisation[k];
    return s + Math.min(TASK_SLOTS, n.capacity.cpu * Math.max(0, 1 - u.cpu - SAFETY), (n.capacity.ram * Math.max(0, 1 - u.ram - SAFETY)) / 3);
  }, 0);
  // A few tasks on a large cluster would need tasks longer than the window to reach `load`: a map on the
  // average node is capped at a twelfth of the window (a reduce, twice a map, then leaves room for both).
  const scale = Math.min((load * Math.max(freeTasks, 1e-9) * T * slotSeconds) / taskSeconds, (T * slotSeconds * avgSpeed) / (MAX_MAP_SHARE_INV * MAP_GFLOP));
  const loadReached = round((scale * taskSeconds) / (Math.max(freeTasks, 1e-9) * T * slotSeconds), 3);
  const mapWork = round(MAP_GFLOP * scale, 3);
  const reduceWork = round(REDUCE_GFLOP * scale, 3);

  const placeBlocks = o.transfers ? hdfsReplicas(nodeList, new Random((seed * 7919) ^ 0x5eed)) : null;
  const jobList: JobSpec[] = jobs.map(({ maps, reduces, shuffle }, q) => {
    const value = round(0.01 * (maps + reduces) * (0.5 + 1.5 * rng.next()), 2);
    const job: JobSpec = {
      id: `job${String(q + 1).padStart(4, '0')}`,
      customer: `c${1 + rng.int(5)}`,
      class: 'batch',
      releaseSlot: 0,
      replication: 3,
      revenue: { onTime: value, late: value },
      stages: [
        { id: 'map', tasks: maps, demand: { cpu: 1, ram: 3 }, work: mapWork, inputMB: CHUNK_MB },
        { id: 'reduce', tasks: reduces, after: ['map'], demand: { cpu: 1, ram: 4 }, work: reduceWork, inputMB: CHUNK_MB },
      ],
    };
    if (placeBlocks) {
      const map = job.stages[0];
      map.blocks = Array.from({ length: maps }, placeBlocks);
      map.outputMB = Math.max(1, Math.min(4 * CHUNK_MB, Math.round(shuffle / maps / 2 ** 20)));
    }
    if (rng.next() < deadlines) {
      const alone = ((Math.ceil(maps / TASK_SLOTS) * mapWork + Math.ceil(reduces / TASK_SLOTS) * reduceWork) / avgSpeed) / slotSeconds;
      job.class = 'deadline';
      job.deadlineSlot = Math.min(T, Math.floor(alone * (2 + 6 * rng.next())) + 1);
      job.revenue = { onTime: value * 2, late: round(-value * rng.next(), 2) };
    }
    return job;
  });

  return {
    format: 'fallow.instance/v1',
    name: `scale-${dc}-${wanted}n-${tasks}t-load${load}-s${seed}${o.transfers ? '-transfers' : ''}`,
    horizon: { slots: T, slotSeconds },
    metrics: ['cpu', 'ram'],
    safetyMargin: { cpu: SAFETY, ram: SAFETY },
    nodes: nodeList,
    usage,
    jobs: jobList,
    provenance: {
      generator: 'harness/scale-instance.ts',
      usage: traces ? `Bitbrains GWA-T-12 Rnd 2013-7, ${traces.length} VMs, each host from its own offset` : 'synthetic diurnal load (no Bitbrains data given)',
      jobs: sizes ? 'SWIM FB-2009 sample 0 sizes' : 'synthetic lognormal sizes (no SWIM data given)',
      load: loadReached,
    },
  };
}

/** Parsed traces by directory and length: a benchmark generates an instance and its next day, or many sizes, in one process. */
const tracesRead = new Map<string, UtilTrace[] | null>();

/** The VM traces long enough to cover the window (most hold a month of 5-minute samples), read once per process. */
function bitbrainsTraces(dataDir: string | undefined, samples: number): UtilTrace[] | null {
  const dir = dataDir && path.join(dataDir, 'bitbrains-rnd', '2013-7');
  if (!dir || !existsSync(dir)) return null;
  const key = `${path.resolve(dir)}\u0000${samples}`;
  if (!tracesRead.has(key)) tracesRead.set(key, readTraces(dir, samples));
  return tracesRead.get(key)!;
}

function readTraces(dir: string, samples: number): UtilTrace[] | null {
  const files = readdirSync(dir).filter((f) => f.endsWith('.csv')).sort((a, b) => parseInt(a) - parseInt(b));
  const out: UtilTrace[] = [];
  for (const f of files) {
    const { cpu, ram } = parseBitbrainsVm(readFileSync(path.join(dir, f), 'utf8'), f);
    if (cpu.v.length >= samples) out.push({ name: f, cpu: cpu.v, ram: ram.v });
  }
  return out.length ? out : null;
}

type HostLoad = (shiftSamples: number) => { cpu: number[]; ram: number[] };

/** One host's load: a VM trace chosen by the seed, read from a seed-drawn offset (plus a shift), one value per slot. */
function traceLoad(traces: UtilTrace[], rng: Random, T: number, slotSeconds: number, samples: number): HostLoad {
  const tr = traces[rng.int(traces.length)];
  const offset = rng.int(Math.max(1, tr.cpu.length - samples));
  const at = (s: ArrayLike<number>, t: number, shift: number) => round(s[(offset + shift + Math.floor((t * slotSeconds) / SAMPLE_SECONDS)) % s.length], 4);
  return (shift) => ({ cpu: Array.from({ length: T }, (_, t) => at(tr.cpu, t, shift)), ram: Array.from({ length: T }, (_, t) => at(tr.ram, t, shift)) });
}

/** A diurnal sine per metric with noise and rare spikes; a shifted day has the same sine and its own noise. */
function syntheticLoad(rng: Random, T: number, slotSeconds: number): HostLoad {
  const metric = (level: number) => {
    const amp = 0.05 + 0.2 * rng.next();
    const phase = 2 * Math.PI * rng.next();
    const noise = Array.from({ length: T }, () => [rng.next(), rng.next()]);
    return (shift: number) => {
      const other = shift ? new Random(Math.floor(noise[0][0] * 2 ** 31) ^ shift) : null;
      return Array.from({ length: T }, (_, t) => {
        const [u, v] = other ? [other.next(), other.next()] : noise[t];
        const at = t * slotSeconds + shift * SAMPLE_SECONDS;
        return round(clamp(level + amp * Math.sin(phase + (2 * Math.PI * at) / 86_400) + 0.06 * (v - 0.5) + (u < 0.003 ? 0.3 : 0), 0, 1), 4);
      });
    };
  };
  const cpu = metric(0.05 + 0.4 * rng.next());
  const ram = metric(0.1 + 0.4 * rng.next());
  return (shift) => ({ cpu: cpu(shift), ram: ram(shift) });
}

function swimSizes(dataDir: string | undefined): [number, number][] | null {
  const file = dataDir && path.join(dataDir, 'swim-facebook', 'FB-2009_samples_24_times_1hr_0.tsv');
  if (!file || !existsSync(file)) return null;
  const sizes = parseSwim(readFileSync(file, 'utf8'))
    .filter((j) => j.inputBytes >= CHUNK_BYTES)
    .map((j): [number, number] => [j.inputBytes, j.shuffleBytes]);
  return sizes.length ? sizes : null;
}

/** Map input of e^N(24, 2) bytes (a median of ~26 GB: ~200 chunks), shuffle a tenth of it give or take. */
function syntheticSize(rng: Random): [number, number] {
  const input = Math.max(CHUNK_BYTES, Math.exp(24 + 2 * rng.gaussian()));
  return [input, input * Math.exp(-2.3 + rng.gaussian())];
}

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
