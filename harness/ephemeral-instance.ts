/**
 * A small generator of Fallow's home ground (Salamander / Cuckoo): heterogeneous nodes whose regular
 * customers leave a diurnal, noisy share of capacity idle, and MapReduce jobs (map -> reduce) to run in it.
 */
import { InstanceDoc, JobSpec, NodeSpec } from '../src/engine/model/types';
import { Random } from '../src/engine/random';

export interface EphemeralOptions {
  nodes?: number;
  jobs?: number;
  slots?: number;
  slotSeconds?: number;
  maxMaps?: number;
  seed?: number;
}

export function ephemeralInstance(o: EphemeralOptions = {}): InstanceDoc {
  const { nodes = 6, jobs = 4, slots = 96, slotSeconds = 300, maxMaps = 24, seed = 1 } = o;
  const rng = new Random(seed);
  const flavors = [
    { flavor: 'big', capacity: { cpu: 32, ram: 128 }, speed: 12, maxTasks: 24 },
    { flavor: 'small', capacity: { cpu: 8, ram: 32 }, speed: 6, maxTasks: 8 },
  ];
  const nodeList: NodeSpec[] = [];
  const usage: Record<string, Record<string, number[]>> = {};
  for (let k = 0; k < nodes; k++) {
    const f = flavors[k % flavors.length];
    const id = `h${String(k + 1).padStart(2, '0')}`;
    nodeList.push({ id, rack: `r${(k % 2) + 1}`, flavor: f.flavor, capacity: { ...f.capacity }, speed: f.speed, maxTasks: f.maxTasks, bandwidthMbps: 100 });
    const phase = rng.next() * Math.PI * 2;
    const series = (base: number) =>
      Array.from({ length: slots }, (_, t) => round(clamp(base + 0.25 * Math.sin(phase + (2 * Math.PI * t) / 48) + 0.05 * (rng.next() - 0.5), 0, 0.9)));
    usage[id] = { cpu: series(0.4), ram: series(0.35) };
  }
  const jobList: JobSpec[] = [];
  for (let j = 0; j < jobs; j++) {
    const maps = 4 + Math.floor(rng.next() * (maxMaps - 3));
    const reduces = Math.max(1, Math.floor(maps / 8));
    jobList.push({
      id: `job${j + 1}`,
      customer: 'acme',
      class: 'deadline',
      releaseSlot: Math.floor(rng.next() * (slots / 4)),
      deadlineSlot: Math.floor(slots * (0.6 + 0.4 * rng.next())),
      revenue: { onTime: 10 + maps, late: -2 },
      replication: 3,
      stages: [
        { id: 'map', tasks: maps, demand: { cpu: 1, ram: 2 }, work: 3600 + Math.floor(rng.next() * 3600), inputMB: 128 },
        { id: 'reduce', tasks: reduces, after: ['map'], demand: { cpu: 2, ram: 4 }, durationSeconds: 600 },
      ],
    });
  }
  return {
    format: 'fallow.instance/v1',
    name: `ephemeral-test-${nodes}n-${jobs}j-s${seed}`,
    horizon: { slots, slotSeconds },
    metrics: ['cpu', 'ram'],
    nodes: nodeList,
    usage,
    jobs: jobList,
  };
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const round = (x: number) => Math.round(x * 1000) / 1000;

/** Over EXACT_TASK_LIMIT (1,500) tasks, where auto races two ls streams instead of exact and ls. */
export function largeMapReduce(): InstanceDoc {
  return ephemeralInstance({ nodes: 4, jobs: 40, maxMaps: 90, slots: 96, seed: 3 });
}
