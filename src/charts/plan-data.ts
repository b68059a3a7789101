/**
 * The plan as the charts see it: one bar per assignment (node, job, start and end slot), each on a lane of its
 * node so that tasks running at once on one node do not hide each other, and each node's lane count.
 */
import { Model, stageKey } from '../engine/model/model';
import type { Issue, PlanDoc } from '../engine/model/types';

export interface Bar {
  node: string;
  /** Index of the node in the instance. */
  k: number;
  job: string;
  stage: string;
  task: number;
  start: number;
  end: number;
  /** 0-based lane of the bar within its node: bars on one lane never overlap. */
  lane: number;
}

export interface PlanBars {
  bars: Bar[];
  /** Lanes each node needs (its most tasks at once, as the greedy interval partition finds: exact for intervals). */
  lanes: Int32Array;
}

/** A plan that does not fit its instance (an assignment naming an unknown job, stage or node). */
export class ChartInputError extends Error {
  constructor(readonly issues: Issue[]) {
    super(issues.map((i) => `${i.path}: ${i.message}`).join('; '));
  }
}

/** Every assignment as a bar; end = start + the stage's duration on the node (FORMAT.md). */
export function planBars(model: Model, plan: PlanDoc): PlanBars {
  const issues: Issue[] = [];
  const bars: Bar[] = [];
  (plan.assignments ?? []).forEach((a, i) => {
    const s = model.stageIndex.get(stageKey(a.job, a.stage));
    const k = model.nodeIndex.get(a.node);
    if (s === undefined) issues.push({ path: `assignments[${i}].stage`, message: `job "${a.job}" has no stage "${a.stage}" in the instance` });
    if (k === undefined) issues.push({ path: `assignments[${i}].node`, message: `the instance has no node "${a.node}"` });
    if (!Number.isInteger(a.start) || a.start < 0) issues.push({ path: `assignments[${i}].start`, message: `must be a slot (integer >= 0), got ${JSON.stringify(a.start)}` });
    if (s === undefined || k === undefined || issues.length > 0) return;
    bars.push({ node: a.node, k, job: a.job, stage: a.stage, task: a.task, start: a.start, end: a.start + model.stages[s].dur[k], lane: 0 });
  });
  if (issues.length) throw new ChartInputError(issues.slice(0, 100));
  return { bars, lanes: assignLanes(bars, model.K) };
}

/** Greedy interval partitioning per node: bars by start, each on the lowest lane free at its start. */
function assignLanes(bars: Bar[], K: number): Int32Array {
  const lanes = new Int32Array(K);
  const byNode: Bar[][] = Array.from({ length: K }, () => []);
  for (const b of bars) byNode[b.k].push(b);
  byNode.forEach((list, k) => {
    list.sort((a, b) => a.start - b.start || a.end - b.end);
    const freeAt: number[] = []; // per lane: the slot it is free from
    for (const b of list) {
      let lane = freeAt.findIndex((t) => t <= b.start);
      if (lane < 0) lane = freeAt.push(0) - 1;
      freeAt[lane] = b.end;
      b.lane = lane;
    }
    lanes[k] = freeAt.length;
  });
  return lanes;
}

/** Latest end over the bars (the makespan), at least 1 so that an axis is never empty. */
export function lastSlot(bars: readonly Bar[]): number {
  let end = 1;
  for (const b of bars) end = Math.max(end, b.end);
  return end;
}
