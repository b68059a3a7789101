/**
 * One experiment of the simulation benchmark (Salamander IV, Cuckoo IV): a generated cluster whose
 * regular customers replay Bitbrains traces, the forecast every approach plans with, the actual load it
 * runs against, and the papers' MapReduce job. Shared by the single-run benchmark (simulate.ts) and the
 * sweep (sweep.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadInstance, Model } from '../../src/engine/model/model';
import { InstanceDoc, JobSpec, PlanDoc } from '../../src/engine/model/types';
import { DAY_ROWS } from './forecast';

export const SLOT_SECONDS = 30;
export const SLOTS = 480; // a 4-hour window: the job's compute takes minutes at these GFLOP/s, 30 s slots keep the plan's rounding small

/** Which experiment and approach a result row is for (the single runs' rows and the sweep's). */
export interface RunOf {
  dc: string;
  chunkMB: number;
  margin: number;
  seed: number;
  approach: string;
  accepted: boolean;
}

/**
 * Forecast instance (day d) and actual usage (day d + 1) from the generator, with the papers' job; the
 * instance's usage (what every approach plans with) is what `forecastOf` makes of the day-d instance.
 * Generated files are cached in `tmp` by (dc, chunk, seed) and the margin set here: the generator's
 * --safety only sets `safetyMargin` and scales the work of its own jobs, which the papers' job replaces
 * (two margins' files differ in nothing else), so a sweep over margins generates each cluster once.
 */
export function experiment(
  gen: string,
  tmp: string,
  dc: string,
  chunk: number,
  margin: number,
  seed: number,
  mapOutputRatio: number,
  forecastOf: (doc: InstanceDoc) => InstanceDoc['usage'] = (doc) => doc.usage,
): { model: Model; actual: InstanceDoc['usage']; forecastDoc: InstanceDoc } {
  const common = ['ephemeral', '--dc', dc, '--tasks', '680', '--chunk', String(chunk), '--safety', '0', '--seed', String(seed), '--slot-seconds', String(SLOT_SECONDS), '--slots', String(SLOTS)];
  const forecastFile = path.join(tmp, `${dc}-${chunk}-${seed}-forecast.json`);
  const actualFile = path.join(tmp, `${dc}-${chunk}-${seed}-actual.json`);
  if (!existsSync(forecastFile)) writeFileSync(forecastFile, execFileSync('python3', [gen, ...common], { maxBuffer: 1 << 28 }));
  if (!existsSync(actualFile)) writeFileSync(actualFile, execFileSync('python3', [gen, ...common, '--usage-shift-samples', String(DAY_ROWS)], { maxBuffer: 1 << 28 }));
  const doc = JSON.parse(readFileSync(forecastFile, 'utf8')) as InstanceDoc;
  const actual = (JSON.parse(readFileSync(actualFile, 'utf8')) as InstanceDoc).usage;
  doc.safetyMargin = Object.fromEntries(doc.metrics.map((m) => [m, margin]));
  doc.usage = forecastOf(doc);
  doc.jobs = [paperJob(chunk, mapOutputRatio)];
  doc.name = `${doc.name}-paperjob`;
  return { model: loadInstance(doc), actual, forecastDoc: doc };
}

/**
 * Salamander IV-A / Cuckoo IV: 640 maps and 40 reduces, 3100 and 6300 FLOP per byte of a chunk, 3 GB of
 * RAM per task with 128 MB chunks and 4 GB with 256 MB, one core each, replication 3. A real MapReduce
 * job: each map reads its chunk and writes `mapOutputRatio` x chunk MB of intermediate output; each reduce
 * reads no chunk, only its 1/40 share of every map's output (the shuffle). The reduces' work stays the
 * papers' 6300 FLOP per byte of a chunk, the figure the papers and the generator give per task.
 */
export function paperJob(chunkMB: number, mapOutputRatio: number): JobSpec {
  const bytes = chunkMB * 2 ** 20;
  const ram = chunkMB === 128 ? 3 : 4;
  return {
    id: 'paper-job',
    customer: 'bench',
    class: 'batch',
    releaseSlot: 0,
    replication: 3,
    stages: [
      { id: 'map', tasks: 640, demand: { cpu: 1, ram }, work: round3((bytes * 3100) / 1e9), inputMB: chunkMB, outputMB: round3(chunkMB * mapOutputRatio) },
      { id: 'reduce', tasks: 40, after: ['map'], demand: { cpu: 1, ram }, work: round3((bytes * 6300) / 1e9) },
    ],
  };
}

/**
 * The map output ratio (shuffle bytes per map input byte). The papers give none (Salamander IV counts
 * "intermediate data of Map tasks" in the job execution time but not its size; Cuckoo IV neither), so it
 * comes from the SWIM Facebook 2009 sample the generator draws its job sizes from (columns: input, shuffle
 * bytes): total shuffle bytes over total input bytes of the jobs reading at least one chunk, i.e. how
 * much a byte of map input shuffles on average in that production trace (0.825 for 128 and 256 MB chunks).
 * Per-job ratios spread from 0 (map-only jobs) to above 2; the byte-weighted mean is what a job of
 * 80-160 GB, the size of the papers' job, shuffles per byte in expectation.
 */
export function swimShuffleRatio(swimFile: string, chunkMB: number): number {
  let input = 0;
  let shuffle = 0;
  for (const line of readFileSync(swimFile, 'utf8').split('\n')) {
    const p = line.trim().split(/\s+/);
    if (p.length < 6) continue;
    const inBytes = Number(p[3]);
    if (!(inBytes >= chunkMB * 2 ** 20)) continue; // the generator's pool: jobs of at least one chunk
    input += inBytes;
    shuffle += Number(p[4]);
  }
  if (!(input > 0)) throw new Error(`${swimFile}: no job reads ${chunkMB} MB or more`);
  return shuffle / input;
}

/** Salamander III-C: "we do not consider data replication": each chunk only on its task's node. */
export function oneReplica(plan: PlanDoc): PlanDoc {
  return { ...plan, placement: plan.placement?.map((p) => ({ ...p, nodes: p.nodes.slice(0, 1) })) };
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
