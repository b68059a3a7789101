import type { PosumScore } from '../evaluate/posum-score';
import type { BatchMetrics } from './batch-metrics';
/**
 * The realised metrics of one simulated run (Salamander IV: job execution time, % relaunched and % remote
 * tasks; two-stage paper Eq. 2-3: revenue and deadline misses; the farmer's SLA: interference).
 */
export interface JobRun {
  id: string;
  accepted: boolean;
  /** Seconds to stage the job's chunks on their nodes before it starts (Salamander III-C). */
  stagingSeconds: number;
  /** When its last task ended on the window clock (s), null when rejected or unfinished. */
  endSeconds: number | null;
  /** stagingSeconds + endSeconds - release: what Salamander IV calls job execution time. */
  executionSeconds: number | null;
  /** endSeconds - release: the part spent running on the cluster, without staging. */
  computeSeconds: number | null;
  deadlineSeconds: number | null;
  onTime: boolean | null;
  revenue: number;
  /** Times the job's tasks were killed (each kill is relaunched), and its tasks whose successful run read their chunk remotely. */
  kills: number;
  remoteTasks: number;
}

/** What the kernel reports of a run (report.ts); the entry points add what a policy run adds (SimReport, metrics.ts). */
export interface RunReport extends BatchMetrics {
  mode: 'plan' | 'policy';
  driver: string;
  qos: string;
  seed: number;
  /** POSUM's P = (V_D, S_B, C) of the run (Table I). */
  score: PosumScore;
  /** Share of a stage's predecessor tasks that ended before it could launch (1: the strict barrier). */
  reduceSlowstart: number;
  /** How often the QoS controller checked each node, simulated seconds (the slot length: once per slot). */
  qosPeriodSeconds: number;
  /** Latest task end on the window clock (0 = start of the window). */
  makespanSeconds: number;
  /** Over accepted jobs that finished. */
  jobExecutionSeconds: { min: number; median: number; max: number };
  /** Kills / tasks of accepted jobs, in % (above 100 when tasks are killed several times, as Cuckoo's). */
  relaunchedTaskPct: number;
  /** Tasks whose successful run was on a node holding none of their chunk's replicas, in %. */
  remoteTaskPct: number;
  /** Chunk placement (every replica) plus remote fetches (every attempt), in bytes. */
  bytesMoved: number;
  placementBytes: number;
  remoteBytes: number;
  /** Accepted jobs with a deadline that ended after it (or never). */
  deadlineMisses: number;
  revenue: number;
  /** Node-slots in which the tasks held more of an incompressible metric than the regular customers left. */
  interferenceSlots: number;
  tasks: number;
  relaunches: number;
  /** Relaunches because an attempt got no CPU at all for the stall timeout (Hadoop's task timeout). */
  stalledTasks: number;
  remoteTasks: number;
  rejectedJobs: number;
  unfinishedJobs: number;
  /** Events processed and the wall time it took (the benchmark's events/second). */
  events: number;
  elapsedMs: number;
  jobs: JobRun[];
}

/** Median of the values (mean of the two middle ones for an even count); 0 for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 === 1 ? s[h] : (s[h - 1] + s[h]) / 2;
}

export function summarise(values: readonly number[]): { min: number; median: number; max: number } {
  if (values.length === 0) return { min: 0, median: 0, max: 0 };
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) (min = Math.min(min, v), (max = Math.max(max, v)));
  return { min, median: median(values), max };
}

/** Two-stage paper Eq. 2-3: onTime when the job ends by its deadline (or has none), else late; 0 rejected. */
export function jobRevenue(accepted: boolean, endSeconds: number | null, deadlineSeconds: number | null, onTime: number, late: number): { onTime: boolean | null; revenue: number } {
  if (!accepted) return { onTime: null, revenue: 0 };
  const ok = endSeconds !== null && (deadlineSeconds === null || endSeconds <= deadlineSeconds + 1e-6);
  return { onTime: ok, revenue: ok ? onTime : late };
}

export function pct(part: number, whole: number): number {
  return whole > 0 ? (100 * part) / whole : 0;
}
