import { InstanceDoc, PlanDoc } from '../engine/model/types';
import { Progress } from '../engine/strategies/strategy';

export interface SolveThreadInput {
  instance: InstanceDoc;
  strategy: string;
  timeBudgetMs: number;
  seed: number;
  /** A SharedArrayBuffer of one Int32: set to 1 to stop the search (the plan so far is still returned). */
  stopBuffer: SharedArrayBuffer;
}

export type SolveThreadMessage =
  | { type: 'progress'; progress: Progress }
  | { type: 'done'; plan: PlanDoc; kpis: Record<string, unknown>; rejections: unknown[]; ends: number[] }
  | { type: 'error'; message: string; stack?: string };
