import { InstanceDoc } from '../../src/engine/model/types';

/**
 * One node running one task at a time (cpu 1, slots of 1 s), and jobs of one stage of `tasks` identical
 * tasks of `seconds` each: the smallest setting where the set of accepted jobs decides the plan.
 */
export function oneNodeJobs(name: string, slots: number, jobs: [id: string, tasks: number, seconds: number][]): InstanceDoc {
  return {
    format: 'fallow.instance/v1',
    name,
    horizon: { slots, slotSeconds: 1 },
    metrics: ['cpu'],
    nodes: [{ id: 'n', capacity: { cpu: 1 } }],
    jobs: jobs.map(([id, tasks, seconds]) => ({ id, stages: [{ id: 's', tasks, demand: { cpu: 1 }, durationSeconds: seconds }] })),
  } as InstanceDoc;
}

/**
 * Room for 10 slots: the longest job (6 slots, what Alg. 1 takes first) leaves no room for either
 * 5-slot job, and the best plan rejects it to run both.
 */
export function bigOrTwoSmall(name: string): InstanceDoc {
  return oneNodeJobs(name, 10, [
    ['big', 1, 6],
    ['small1', 1, 5],
    ['small2', 1, 5],
  ]);
}

/**
 * 24 slots. Longest job first (rffd) takes `long` (13 slots) and then only `pair` fits (3 tasks); least
 * work per task first (the density start) takes `pair` and one `triple` (5 tasks), after which nothing
 * else fits; the best set is the two triples (6 tasks).
 */
export function greedyJobSetsMissTheBest(): InstanceDoc {
  return oneNodeJobs('ls-greedy-job-sets-miss-the-best', 24, [
    ['long', 1, 13],
    ['pair', 2, 3],
    ['triple1', 3, 4],
    ['triple2', 3, 4],
  ]);
}
