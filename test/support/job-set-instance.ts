import { InstanceDoc } from '../../src/engine/model/types';

/**
 * One node running one task at a time for 24 slots. Longest job first (rffd) takes `long` (13 slots)
 * and then only `pair` fits (3 tasks); least work per task first (the density start) takes `pair` and
 * one `triple` (5 tasks), after which nothing else fits; the best set is the two triples (6 tasks).
 */
export function greedyJobSetsMissTheBest(): InstanceDoc {
  const job = (id: string, tasks: number, seconds: number) => ({ id, stages: [{ id: 's', tasks, demand: { cpu: 1 }, durationSeconds: seconds }] });
  return {
    format: 'fallow.instance/v1',
    name: 'ls-greedy-job-sets-miss-the-best',
    horizon: { slots: 24, slotSeconds: 1 },
    metrics: ['cpu'],
    nodes: [{ id: 'n', capacity: { cpu: 1 } }],
    jobs: [job('long', 1, 13), job('pair', 2, 3), job('triple1', 3, 4), job('triple2', 3, 4)],
  } as InstanceDoc;
}
