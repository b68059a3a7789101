/**
 * Not a test: measures how long loadInstance (validation + compilation) takes on a large instance,
 *   10,000 tasks x 100 nodes x 1,000 slots, with a usage series for every node and metric.
 * Run after a build:  node dist/harness/load-speed.js
 * (Imported by bench/ and test/, it does nothing then.)
 */
import { loadInstance } from '../src/engine/model/model';
import { InstanceDoc, JobSpec } from '../src/engine/model/types';
import { Random } from '../src/engine/random';

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

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function main() {
  const inst = largeInstance();
  const text = JSON.stringify(inst);
  const parse: number[] = [];
  const load: number[] = [];
  let model = loadInstance(JSON.parse(text)); // warm-up
  for (let i = 0; i < 5; i++) {
    let t = process.hrtime.bigint();
    const raw = JSON.parse(text);
    parse.push(Number(process.hrtime.bigint() - t) / 1e6);
    t = process.hrtime.bigint();
    model = loadInstance(raw);
    load.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  console.log(
    `instance: ${model.nTasks} tasks x ${model.K} nodes x ${model.T} slots x ${model.M} metrics, ${(text.length / 1e6).toFixed(1)} MB of JSON\n` +
      `JSON.parse:   median ${median(parse).toFixed(1)} ms  (${parse.map((x) => x.toFixed(0)).join(', ')})\n` +
      `loadInstance: median ${median(load).toFixed(1)} ms  (${load.map((x) => x.toFixed(0)).join(', ')})`,
  );
}

if (require.main === module && process.env.NODE_TEST_CONTEXT === undefined) main();
