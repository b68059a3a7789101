/**
 * Instances of the shape of the ACO-BP paper's set-up (seeds/003, section IV-A): 100 VMs in 5 flavours
 * spread over 5 racks, the 6 jobs of its Table of jobs (containers, task counts and task latencies), and
 * the input blocks placed as HDFS places them (3 replicas: one node, a second in another rack, a third in
 * the second's rack). `scale` multiplies the task counts; `seed` moves the blocks and, when `jitter` is
 * set, the task counts and latencies by up to that fraction. Used by the tests and the ACO-BP benchmark.
 */
import type { InstanceDoc, JobSpec } from '../src/engine/model/types';
import { Random } from '../src/engine/random';
import { hdfsReplicas } from './hdfs-replicas';

export const ACOBP_FLAVOURS: Record<string, { vcpu: number; mem: number }> = {
  VMF1: { vcpu: 1, mem: 2 },
  VMF2: { vcpu: 2, mem: 4 },
  VMF3: { vcpu: 4, mem: 8 },
  VMF4: { vcpu: 8, mem: 16 },
  VMF5: { vcpu: 12, mem: 24 },
};

/** [id, maps, map container, map seconds, reduces, reduce container, reduce seconds] (paper, L301). */
export const ACOBP_JOBS: [string, number, [number, number], number, number, [number, number], number][] = [
  ['J1-wordcount', 1000, [1, 2], 7, 20, [1, 1], 13],
  ['J2-wordmean', 500, [1, 1], 6, 15, [2, 1], 11],
  ['J3-wordstddev', 2000, [1, 1.5], 5, 50, [2, 2], 10],
  ['J4-kmeans', 1500, [2, 1.5], 7, 10, [2, 2.5], 15],
  ['J5-sort', 600, [1, 2], 6, 0, [0, 0], 0],
  ['J6-join', 1200, [2, 2], 13, 5, [1, 1], 27],
];

export interface AcoBpInstanceOptions {
  seed?: number;
  /** Multiplies every task count (the 2-4x; 0.1 for quick tests). */
  scale?: number;
  /** VMs per flavour (the paper's 20). */
  perFlavour?: number;
  racks?: number;
  /** Relative spread of task counts and latencies between generated instances (0: the paper's values). */
  jitter?: number;
  slots?: number;
  /**
   * Each job's map output as a share of its input, drawn per job uniformly from [min, max] (issue 38's
   * "from a tenth to all of the input": [0.1, 1]); default [1, 1], every map writing its 128 MB. Drawn from
   * a stream of its own, so the blocks, counts and latencies of a seed do not change with it.
   */
  outputShare?: [number, number];
}

export function acoBpInstance(o: AcoBpInstanceOptions = {}): InstanceDoc {
  const rng = new Random(o.seed ?? 1);
  const perFlavour = o.perFlavour ?? 20;
  const racks = o.racks ?? 5;
  const scale = o.scale ?? 1;
  const jitter = o.jitter ?? 0;
  const vary = (x: number) => x * (1 + jitter * (2 * rng.next() - 1));
  const [shareMin, shareMax] = o.outputShare ?? [1, 1];
  const shares = new Random(((o.seed ?? 1) * 7919) ^ 0x5eed);
  const outputMB = () => Math.round(128 * (shareMin + (shareMax - shareMin) * shares.next()));
  const nodes = Object.entries(ACOBP_FLAVOURS).flatMap(([flavor, c], f) =>
    Array.from({ length: perFlavour }, (_, i) => {
      const n = f * perFlavour + i;
      return { id: `vm${String(n + 1).padStart(3, '0')}`, flavor, rack: `rack${(n % racks) + 1}`, capacity: { vcpu: c.vcpu, mem: c.mem } };
    }),
  );
  const replicas = hdfsReplicas(nodes, rng);
  const jobs: JobSpec[] = ACOBP_JOBS.map(([id, maps, mc, ms, reduces, rc, rs]) => {
    const mapTasks = Math.max(1, Math.round(vary(maps) * scale));
    const stages: JobSpec['stages'] = [
      { id: 'map', tasks: mapTasks, demand: { vcpu: mc[0], mem: mc[1] }, durationSeconds: Math.max(1, Math.round(vary(ms))), inputMB: 128, outputMB: outputMB(), blocks: Array.from({ length: mapTasks }, replicas) },
    ];
    if (reduces > 0)
      stages.push({ id: 'reduce', tasks: Math.max(1, Math.round(vary(reduces) * Math.sqrt(scale))), after: ['map'], demand: { vcpu: rc[0], mem: rc[1] }, durationSeconds: Math.max(1, Math.round(vary(rs))) });
    return { id, class: 'batch', replication: 3, stages };
  });
  return {
    format: 'fallow.instance/v1',
    name: `acobp-s${o.seed ?? 1}-x${scale}`,
    horizon: { slots: o.slots ?? 3600, slotSeconds: 1 },
    metrics: ['vcpu', 'mem'],
    network: { intraRackMbps: 10_000, interRackMbps: 1_000 },
    nodes,
    jobs,
    provenance: { generator: 'harness/acobp-instance.ts', paper: 'seeds/003 section IV-A', seed: o.seed ?? 1, scale, jitter, ...(o.outputShare ? { outputShare: o.outputShare } : {}) },
  };
}
