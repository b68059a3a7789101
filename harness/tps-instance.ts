/**
 * Instances of the two-stage paper's experiments (section 5.1): 20 workers of 8 cores / 8 GB running
 * containers of 1 core / 2 GB (80 containers), MapReduce jobs with ms in [20, 400] maps of mt in [10, 60] s,
 * rs in [1, 40] reduces of rt in [30, 180] s, on-time revenue a in [10, 100] and late revenue b in
 * [-a/2, 0], a deadline 1.5 to 6 times the job's length alone after its release, slots of 10 s and a window
 * twice the last deadline. Plus a heterogeneous variant of Fallow's general model to exercise what the
 * paper leaves out. Both are driven by a seed only.
 */
import { InstanceDoc, JobSpec, NodeSpec } from '../src/engine/model/types';
import { Random } from '../src/engine/random';

export interface TpsInstanceOptions {
  jobs?: number;
  seed?: number;
  nodes?: number;
}

const SLOT_SECONDS = 10;

/** Uniform integer in [lo, hi]. */
const between = (rng: Random, lo: number, hi: number) => lo + rng.int(hi - lo + 1);
const slots = (seconds: number) => Math.max(1, Math.ceil(seconds / SLOT_SECONDS));

interface JobDraw {
  ms: number;
  rs: number;
  mt: number;
  rt: number;
  releaseSlot: number;
  stretch: number;
  a: number;
  b: number;
}

/** One job of the paper's distribution; arrivals spread over 45 s per job, as tools/gen-instance.py does. */
function drawJob(rng: Random, n: number): JobDraw {
  const ms = between(rng, 20, 400);
  const rs = between(rng, 1, 40);
  const mt = between(rng, 10, 60);
  const rt = between(rng, 30, 180);
  const releaseSlot = Math.floor(between(rng, 0, Math.floor((90 * n) / 2)) / SLOT_SECONDS);
  const stretch = 1.5 + 4.5 * rng.next();
  const a = between(rng, 10, 100);
  const b = -between(rng, 0, Math.floor(a / 2));
  return { ms, rs, mt, rt, releaseSlot, stretch, a, b };
}

/** Eq. 4's length alone, in slots: ceil(ms / containers) rounds of maps, then of reduces. */
function aloneSlots(d: JobDraw, containers: number): number {
  return Math.ceil(d.ms / containers) * slots(d.mt) + Math.ceil(d.rs / containers) * slots(d.rt);
}

function finish(name: string, metrics: string[], nodes: NodeSpec[], jobs: JobSpec[], usage?: InstanceDoc['usage']): InstanceDoc {
  const last = Math.max(...jobs.map((j) => j.deadlineSlot ?? 0));
  return { format: 'fallow.instance/v1', name, horizon: { slots: 2 * last, slotSeconds: SLOT_SECONDS }, metrics, nodes, ...(usage ? { usage } : {}), jobs };
}

/** The paper's platform: identical nodes, map -> reduce jobs with fixed task durations. */
export function tpsPaperInstance(o: TpsInstanceOptions = {}): InstanceDoc {
  const { jobs: n = 40, seed = 1, nodes: nn = 20 } = o;
  const rng = new Random(seed);
  const nodes: NodeSpec[] = Array.from({ length: nn }, (_, k) => ({ id: `w${String(k + 1).padStart(2, '0')}`, capacity: { cpu: 8, ram: 8 } }));
  const containers = nn * Math.min(8 / 1, 8 / 2); // Eq. 1
  const jobs: JobSpec[] = [];
  for (let q = 0; q < n; q++) {
    const d = drawJob(rng, n);
    jobs.push({
      id: `t${String(q + 1).padStart(3, '0')}`,
      customer: `u${between(rng, 1, 8)}`,
      class: 'deadline',
      releaseSlot: d.releaseSlot,
      deadlineSlot: d.releaseSlot + Math.ceil(aloneSlots(d, containers) * d.stretch),
      revenue: { onTime: d.a, late: d.b },
      stages: [
        { id: 'map', tasks: d.ms, demand: { cpu: 1, ram: 2 }, durationSeconds: d.mt },
        { id: 'reduce', tasks: d.rs, after: ['map'], demand: { cpu: 1, ram: 2 }, durationSeconds: d.rt },
      ],
    });
  }
  return finish(`tps-paper-${n}j-s${seed}`, ['cpu', 'ram'], nodes, jobs);
}

/**
 * The same job mix on Fallow's general model: three node flavours (8 cores / 8 GB; 16 cores / 32 GB with
 * 6 task slots; 8 cores / 8 GB at 1.5x speed), a third metric (network share), stages given as work so
 * durations differ per node, a regular workload that takes part of every third node in a daily wave,
 * and a quarter of the jobs with a three-stage DAG (two independent inputs joined by the reduce).
 */
export function tpsHeterogeneousInstance(o: TpsInstanceOptions = {}): InstanceDoc {
  const { jobs: n = 40, seed = 1, nodes: nn = 20 } = o;
  const rng = new Random(seed ^ 0x5eed);
  const flavours = [
    { capacity: { cpu: 8, ram: 8, net: 10 }, speed: 1 },
    { capacity: { cpu: 16, ram: 32, net: 20 }, speed: 1, maxTasks: 6 },
    { capacity: { cpu: 8, ram: 8, net: 10 }, speed: 1.5 },
  ];
  const nodes: NodeSpec[] = Array.from({ length: nn }, (_, k) => ({ id: `h${String(k + 1).padStart(2, '0')}`, ...flavours[k % flavours.length] }));
  const containers = nodes.reduce((c, node) => c + Math.min(node.capacity.cpu, node.capacity.ram / 2, node.maxTasks ?? Infinity), 0);
  const jobs: JobSpec[] = [];
  for (let q = 0; q < n; q++) {
    const d = drawJob(rng, n);
    const split = rng.next() < 0.25;
    const maps = split ? Math.max(1, Math.floor(d.ms / 2)) : d.ms;
    const stages: JobSpec['stages'] = [{ id: 'map', tasks: maps, demand: { cpu: 1, ram: 2, net: 1 }, work: d.mt }];
    if (split) stages.push({ id: 'side', tasks: d.ms - maps, demand: { cpu: 2, ram: 2, net: 2 }, work: d.mt });
    stages.push({ id: 'reduce', tasks: d.rs, after: stages.map((s) => s.id), demand: { cpu: 1, ram: 3, net: 2 }, durationSeconds: d.rt });
    jobs.push({
      id: `t${String(q + 1).padStart(3, '0')}`,
      customer: `u${between(rng, 1, 8)}`,
      class: 'deadline',
      releaseSlot: d.releaseSlot,
      deadlineSlot: d.releaseSlot + Math.ceil(aloneSlots(d, containers) * d.stretch),
      revenue: { onTime: d.a, late: d.b },
      stages,
    });
  }
  const doc = finish(`tps-hetero-${n}j-s${seed}`, ['cpu', 'ram', 'net'], nodes, jobs);
  const usage: NonNullable<InstanceDoc['usage']> = {};
  nodes.forEach((node, k) => {
    if (k % 3 !== 0) return;
    const wave = Array.from({ length: doc.horizon.slots }, (_, t) => Math.round(250 * (1 + Math.sin((2 * Math.PI * t) / 360 + k))) / 1000);
    usage[node.id] = { cpu: wave, ram: wave };
  });
  return { ...doc, usage };
}
