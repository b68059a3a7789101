/** The service benchmark's results file (bench/results/service-<date>.json, format fallow.bench-service/v1). */
import type { MachineInfo } from '../lib/machine';
import type { Summary } from '../lib/stats';
import type { UsageResult } from './usage';

export const SERVICE_RESULTS_FORMAT = 'fallow.bench-service/v1';
/** The service's targets: a 10,000-assignment plan stored within 1 s; a plan stored within timeBudgetMs + 1 s. */
export const TARGET_STORE_MS = 1000;
export const TARGET_OVERRUN_MS = 1000;

export interface StoreResult {
  instance: string;
  assignments: number;
  documentBytes: number;
  warmups: number[];
  samplesMs: number[];
  summary: Summary;
  targetMs: number;
  note: string;
}

export interface E2eSolve {
  instance: string;
  source: string;
  tasks: number;
  strategy: string;
  timeBudgetMs: number;
  solveId: string;
  status: string;
  error: string | null;
  attempts: number;
  scheduledTasks: number | null;
  makespanSlots: number | null;
  /** plan.stats.elapsedMs as the engine reports it (progress.elapsedMs of the stored solve). */
  engineElapsedMs: number | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** startedAt - createdAt */
  queueMs: number | null;
  /** finishedAt - startedAt */
  runMs: number | null;
  /** finishedAt - startedAt - timeBudgetMs (finishedAt is now() of the storing transaction, i.e. its start). */
  overrunMs: number | null;
  /** first poll that saw the terminal status - startedAt - timeBudgetMs: an upper bound of the commit time. */
  observedOverrunMs: number | null;
}

export interface E2eGroup {
  strategy: string;
  timeBudgetMs: number;
  solves: number;
  succeeded: number;
  withinTarget: number;
  overrun: Summary;
  observedOverrun: Summary;
  queue: Summary;
  worst: string | null;
}

export interface ApiSeries {
  name: string;
  detail: string;
  samplesMs: number[];
  summary: Summary;
  statuses: Record<string, number>;
}

export interface ServiceResults {
  format: typeof SERVICE_RESULTS_FORMAT;
  startedAt: string;
  finishedAt: string | null;
  machine: MachineInfo;
  loadAverage: { phase: string; at: string; load1: number; load5: number }[];
  argv: string[];
  environment: { postgres: string; redis: string; database: string; queuePrefix: string; workers: number; workerConcurrency: number; lockMs: number; stalledIntervalMs: number };
  store: StoreResult | null;
  e2e: { instances: { name: string; source: string; tasks: number }[]; skipped: string[]; solves: E2eSolve[]; groups: E2eGroup[]; pollMs: number } | null;
  api: ApiSeries[];
  /** Absent in files written before the usage part existed. */
  usage?: UsageResult | null;
  notes: string[];
}

