/** Small helpers of the service benchmark's parts. */
import type { InstanceDoc } from '../../src/engine/model/types';

export const round2 = (x: number) => Math.round(x * 100) / 100;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const countTasks = (inst: InstanceDoc) => inst.jobs.reduce((a, j) => a + j.stages.reduce((b, s) => b + s.tasks, 0), 0);
