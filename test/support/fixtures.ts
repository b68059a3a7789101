/** Small helpers shared by the engine tests: plan documents and temporary files. */
import * as fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AssignmentDoc, InstanceDoc, PLAN_FORMAT, PlanDoc } from '../../src/engine/model/types';
import { objectiveOf } from './random-instance';

/** A plan with the given assignments and rejections whose objective is what they give (unless overridden). */
export function planOf(inst: InstanceDoc, assignments: AssignmentDoc[], rejected: string[] = [], extra: Partial<PlanDoc> = {}): PlanDoc {
  const plan: PlanDoc = {
    format: PLAN_FORMAT,
    instance: inst.name,
    strategy: 'hand',
    assignments,
    rejected,
    objective: { scheduledTasks: 0, makespanSlots: 0 },
  };
  plan.objective = objectiveOf(inst, plan);
  return { ...plan, ...extra };
}

/** `job/stage/task@node:start` shorthand for an assignment. */
export function at(spec: string): AssignmentDoc {
  const m = /^([^/]+)\/([^/]+)\/(\d+)@([^:]+):(-?\d+)$/.exec(spec);
  if (!m) throw new Error(`bad assignment shorthand ${spec}`);
  return { job: m[1], stage: m[2], task: Number(m[3]), node: m[4], start: Number(m[5]) };
}

export function clone<T>(x: T): T {
  return JSON.parse(JSON.stringify(x));
}

/** A temporary directory removed when `fn` is done. */
export async function withTempDir<R>(fn: (dir: string, write: (name: string, data: unknown) => string) => Promise<R> | R): Promise<R> {
  const dir = mkdtempSync(path.join(tmpdir(), 'fallow-test-'));
  const write = (name: string, data: unknown) => {
    const file = path.join(dir, name);
    writeFileSync(file, typeof data === 'string' ? data : JSON.stringify(data, null, 1));
    return file;
  };
  try {
    return await fn(dir, write);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** fc.assert with the failing assertion's message in the report (node:test shows only the message). */
export function assertProperty<Ts>(property: fc.IAsyncPropertyWithHooks<Ts> | fc.IAsyncProperty<Ts>, params: fc.Parameters<Ts>): Promise<void>;
export function assertProperty<Ts>(property: fc.IProperty<Ts>, params: fc.Parameters<Ts>): void;
export function assertProperty<Ts>(property: any, params: fc.Parameters<Ts>): any {
  return fc.assert(property, { ...params, includeErrorInReport: true });
}
