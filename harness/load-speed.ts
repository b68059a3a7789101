/**
 * The large instance that tests and benchmarks share: by default 10,000 tasks x 100 nodes x 1,000 slots, with a
 * usage series for every node and metric (bench/load-speed.ts times loadInstance on it; the charts, the plan
 * store and the screenshots draw or store its plans).
 */
import { InstanceDoc, JobSpec } from '../src/engine/model/types';
import { Random } from '../src/engine/random';

/** MapReduce jobs of 80 maps + 20 reduces each (tasks / 100 jobs) on `nodes` nodes, seeded. */
export function largeInstance(tasks = 10_000, nodes = 100, slots = 1_000, seed = 1): InstanceDoc {
  const rng = new Random(seed);
  const metrics = ['cpu', 'ram'];
  const usage: Record<string, Record<string, number[]>> = {};
  const nodeSpecs = Array.from({ length: nodes }, (_, k) => {
    const id = `h${String(k).padStart(3, '0')}`;
    usage[id] = Object.fromEntries(metrics.map((m) => [m, Array.from({ length: slots }, () => Math.round(rng.next() * 0.6 * 1000) / 1000)]));
    return { id, rack: `r${k % 10}`, capacity: { cpu: 16 + 16 * (k % 3), ram: 64 * (1 + (k % 2)) }, speed: 5 + (k % 4), maxTasks: 24 };
  });
  // 100 MapReduce jobs: 80 map + 20 reduce tasks each
  const jobs: JobSpec[] = Array.from({ length: tasks / 100 }, (_, j) => ({
    id: `job${j}`,
    releaseSlot: rng.int(slots / 2),
    revenue: { onTime: 10, late: -2 },
    deadlineSlot: slots - 1,
    stages: [
      { id: 'map', tasks: 80, demand: { cpu: 1, ram: 2 + rng.int(3) }, work: 400 + rng.int(400), inputMB: 128 },
      { id: 'reduce', tasks: 20, after: ['map'], demand: { cpu: 1, ram: 4 }, durationSeconds: 300 },
    ],
  }));
  return {
    format: 'fallow.instance/v1',
    name: 'load-speed',
    horizon: { slots, slotSeconds: 180 },
    metrics,
    safetyMargin: { cpu: 0.05, ram: 0.05 },
    nodes: nodeSpecs,
    usage,
    jobs,
  };
}
