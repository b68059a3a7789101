/**
 * bench:posum's workloads (bench/posum.ts, bench/posum-variants.ts): 40 SWIM FB-2010 jobs arriving uniformly over
 * 30 minutes or in 3 bursts, half of them deadline jobs, on 8 fixed nodes under a Bitbrains VM's load (forecast:
 * its first day, actual: its second) and 8 leasable ones; the F_c weights every run is scored with.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { InstanceDoc, JobSpec, NodeSpec } from '../../src/engine/model/types';
import { Random } from '../../src/engine/random';
import { parseSwim, SwimJob } from '../../src/predict-eval/swim';
import { sharedDir } from '../lib/paths';

export const SLOT = 60;
export const SLOTS = 480;
export const WEIGHTS = { alpha: 1 / 3600, beta: 0.1, gamma: 1 };

/** Day 1 and day 2 of a Bitbrains VM's CPU and memory use, one value per 60-s slot (`slots` of them). */
export function bitbrains(file: string, slots = SLOTS): { forecast: Record<string, number[]>; actual: Record<string, number[]> } {
  const rows = readFileSync(file, 'utf8').split('\n').slice(1).filter((l) => l.trim()).map((l) => l.split(';').map((x) => Number(x.trim())));
  const cpu = rows.map((r) => Math.min(1, Math.max(0, r[4] / 100)));
  const ram = rows.map((r) => (r[5] > 0 ? Math.min(1, r[6] / r[5]) : 0));
  const day = (series: number[], d: number) => Array.from({ length: slots }, (_, t) => series[(d * 288 + Math.floor((t * SLOT) / 300)) % series.length] ?? 0);
  return { forecast: { cpu: day(cpu, 0), ram: day(ram, 0) }, actual: { cpu: day(cpu, 1), ram: day(ram, 1) } };
}

export function workload(trace: SwimJob[], traces: string[], kind: 'uniform' | 'bursty', seed: number): { doc: InstanceDoc; actual: Record<string, Record<string, number[]>> } {
  const rng = new Random(seed);
  const nodes = posumNodes();
  const usage: Record<string, Record<string, number[]>> = {};
  const actual: Record<string, Record<string, number[]>> = {};
  for (let k = 0; k < 8; k++) {
    const b = bitbrains(traces[(seed + k) % traces.length]);
    usage[`f${k}`] = b.forecast;
    actual[`f${k}`] = b.actual;
  }
  const start = rng.int(Math.max(1, trace.length - 40));
  const jobs: JobSpec[] = trace.slice(start, start + 40).map((j, n) => swimJob(j, n, kind === 'uniform' ? Math.floor((n * 30) / 40) : [0, 10, 20][n % 3] + rng.int(2), rng));
  return { doc: { format: 'fallow.instance/v1', name: `posum-${kind}-${seed}`, horizon: { slots: SLOTS, slotSeconds: SLOT }, metrics: ['cpu', 'ram'], nodes, usage, jobs }, actual };
}

/** The 8 fixed nodes (0.5 per hour) and 8 leasable ones (start-up 60 s, minimum lease 10 min, 1 per hour) every workload runs on. */
export function posumNodes(): NodeSpec[] {
  return [
    ...Array.from({ length: 8 }, (_, k) => ({ id: `f${k}`, capacity: { cpu: 8, ram: 32 }, costPerHour: 0.5 })),
    ...Array.from({ length: 8 }, (_, k) => ({ id: `l${k}`, capacity: { cpu: 8, ram: 32 }, costPerHour: 1, lease: { startupSeconds: 60, minLeaseSeconds: 600 } })),
  ];
}

/** SWIM job `j` as the n-th job of a workload, released at slot `release`: maps (and reduces) sized from its bytes, a deadline for half of them. */
export function swimJob(j: SwimJob, n: number, release: number, rng: Random): JobSpec {
  const maps = Math.min(40, Math.max(1, Math.ceil(j.inputBytes / 256e6)));
  const mapSeconds = Math.round(20 + (j.inputBytes / maps / 1e6) * 0.08);
  const reduces = j.shuffleBytes > 0 ? Math.min(8, Math.max(1, Math.ceil(j.shuffleBytes / 2e9))) : 0;
  const reduceSeconds = Math.round(30 + (j.shuffleBytes / Math.max(1, reduces) / 1e6) * 0.02);
  const stages: JobSpec['stages'] = [{ id: 'map', tasks: maps, demand: { cpu: 1, ram: 2 }, durationSeconds: mapSeconds }];
  if (reduces) stages.push({ id: 'reduce', tasks: reduces, demand: { cpu: 1, ram: 4 }, after: ['map'], durationSeconds: Math.min(1200, reduceSeconds) });
  // Alone on the 8 fixed nodes (64 cores): its waves of maps, then of reduces.
  const alone = Math.ceil(maps / 64) * mapSeconds + (reduces ? Math.min(1200, reduceSeconds) : 0);
  const deadline = rng.next() < 0.5 ? release + Math.ceil(((1.5 + 1.5 * rng.next()) * alone) / SLOT) : null;
  return { id: `${j.id}-${n}`, class: deadline === null ? 'batch' : 'deadline', releaseSlot: release, ...(deadline !== null ? { deadlineSlot: deadline } : {}), stages };
}

/** The SWIM trace and the Bitbrains VM files the workloads are made of, or why they are absent. */
export function posumInputs(): { trace: SwimJob[]; traces: string[] } | string {
  const data = path.join(sharedDir(), 'data');
  if (!existsSync(data)) return `${data} (SWIM and Bitbrains) is absent (../shared or $FALLOW_SHARED)`;
  const trace = parseSwim(readFileSync(path.join(data, 'swim-facebook', 'FB-2010_samples_24_times_1hr_0.tsv'), 'utf8'));
  const traces = Array.from({ length: 12 }, (_, k) => path.join(data, 'bitbrains-rnd', '2013-7', `${k + 1}.csv`)).filter(existsSync);
  return { trace, traces };
}
