import { InstanceDoc, PlanDoc } from '../engine/model/types';
import { Objective, Progress } from '../engine/strategies/strategy';

export interface SolveThreadInput {
  instance: InstanceDoc;
  strategy: string;
  objective: Objective;
  timeBudgetMs: number;
  seed: number;
  /** A SharedArrayBuffer of one Int32: set to 1 to stop the search (the plan so far is still returned). */
  stopBuffer: SharedArrayBuffer;
}

export type SolveThreadMessage =
  | { type: 'progress'; progress: Progress }
  /** `kpis` includes `jobs`, each job's outcome (end, deadline, on time, revenue): what accounting reads. */
  | { type: 'done'; plan: PlanDoc; kpis: Record<string, unknown>; rejections: unknown[]; ends: number[] }
  | { type: 'error'; message: string; stack?: string };
