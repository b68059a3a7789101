/**
 * Micro-measurements: loadInstance on a generated 10,000 tasks x 100 nodes x 1,000 slots instance (median
 * of 5), and the ls strategy's moves per second when it reports stats.movesPerSecond.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadInstance } from '../../src/engine/model/model';
import { Random } from '../../src/engine/random';
import { Measurement } from './types';
import { median } from '../lib/stats';

export const LARGE = { tasks: 10000, nodes: 100, slots: 1000, seed: 7 };

/**
 * A synthetic MapReduce instance of exactly LARGE.tasks tasks on LARGE.nodes nodes with a usage series of
 * LARGE.slots values per node and metric (the shape of the ephemeral instances, scaled up). Deterministic.
 */
export function largeInstance(): unknown {
  const rng = new Random(LARGE.seed);
  const T = LARGE.slots;
  const nodes = [];
  const usage: Record<string, Record<string, number[]>> = {};
  for (let k = 0; k < LARGE.nodes; k++) {
    const id = `n${String(k + 1).padStart(3, '0')}`;
    const cores = [8, 12, 16, 24, 32][Math.floor(rng.next() * 5)];
    nodes.push({ id, rack: `r${(k % 10) + 1}`, capacity: { cpu: cores, ram: cores * 4 }, speed: 4 + Math.round(rng.next() * 80) / 10, maxTasks: 20 });
    const cpu: number[] = [];
    const ram: number[] = [];
    let c = rng.next() * 0.6;
    let r = rng.next() * 0.6;
    for (let t = 0; t < T; t++) {
      c = Math.min(0.95, Math.max(0, c + (rng.next() - 0.5) * 0.05));
      r = Math.min(0.95, Math.max(0, r + (rng.next() - 0.5) * 0.03));
      cpu.push(Math.round(c * 1e4) / 1e4);
      ram.push(Math.round(r * 1e4) / 1e4);
    }
    usage[id] = { cpu, ram };
  }
  const jobs = [];
  let left = LARGE.tasks;
  for (let j = 0; left > 0; j++) {
    const maps = Math.min(left - 1, 20 + Math.floor(rng.next() * 300));
    const reds = Math.min(left - maps, 1 + Math.floor(rng.next() * 30));
    left -= maps + reds;
    jobs.push({
      id: `job${String(j + 1).padStart(3, '0')}`,
      customer: `c${(j % 5) + 1}`,
      class: 'batch',
      releaseSlot: Math.floor(rng.next() * 100),
      stages: [
        { id: 'map', tasks: maps, demand: { cpu: 1, ram: 3 }, work: Math.round(2000 + rng.next() * 8000), inputMB: 128 },
        ...(reds > 0 ? [{ id: 'reduce', tasks: reds, after: ['map'], demand: { cpu: 1, ram: 4 }, work: Math.round(4000 + rng.next() * 12000) }] : []),
      ],
    });
  }
  return {
    format: 'fallow.instance/v1',
    name: `bench-large-${LARGE.tasks}t-${LARGE.nodes}n-${LARGE.slots}s`,
    horizon: { slots: T, slotSeconds: 180 },
    metrics: ['cpu', 'ram'],
    safetyMargin: { cpu: 0.05, ram: 0.05 },
    nodes,
    usage,
    jobs,
    provenance: { source: 'fallow bench/measure.ts synthetic generator (random walk usage), seed ' + LARGE.seed },
  };
}

export function largeInstanceFile(cache: string): string {
  const file = path.join(cache, 'instances', 'measure', `large-${LARGE.tasks}t-${LARGE.nodes}n-${LARGE.slots}s-s${LARGE.seed}.json`);
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file + '.part', JSON.stringify(largeInstance()));
    renameSync(file + '.part', file);
  }
  return file;
}

/** loadInstance (validation + compilation) on the large instance: 5 runs, each on a fresh JSON.parse. */
export function measureLoad(file: string, runs = 5): Measurement[] {
  const text = readFileSync(file, 'utf8');
  const parse: number[] = [];
  const load: number[] = [];
  let shape = '';
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const raw = JSON.parse(text);
    const t1 = performance.now();
    const model = loadInstance(raw);
    const t2 = performance.now();
    parse.push(Math.round((t1 - t0) * 10) / 10);
    load.push(Math.round((t2 - t1) * 10) / 10);
    shape = `${model.nTasks} tasks, ${model.K} nodes, ${model.T} slots, ${model.M} metrics, ${(text.length / 2 ** 20).toFixed(1)} MB JSON`;
  }
  return [
    { name: 'loadInstance (10k tasks x 100 nodes x 1000 slots)', value: median(load), unit: 'ms (median of 5)', detail: shape, samples: load },
    { name: 'JSON.parse of the same file', value: median(parse), unit: 'ms (median of 5)', detail: shape, samples: parse },
  ];
}
