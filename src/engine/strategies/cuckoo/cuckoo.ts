import { Model, stageKey } from '../../model/model';
import { PlacementDoc } from '../../model/types';
import { placeChunks } from '../../placement/placement';
import { cuckooPlacement } from '../../placement/cuckoo-plan';
import { Schedule } from '../../schedule/schedule';
import { Strategy, StrategyContext, StrategyResult } from '../../contracts/strategy';
import { localityListSchedule } from './locality-list';

/**
 * Cuckoo (Cuckoo III-C, the data placement planner, with Hadoop's default scheduler) as a plan:
 *   1. host weights from the forecast availability and the safety margin (Alg. 1);
 *   2. weighted round-robin chunk placement with `replication` replicas (default 3) and the accept/reject
 *      of each job (Alg. 2: "if there is not enough resource for processing a chunk, a rejection message");
 *   3. the accepted jobs' tasks turned into start slots the way Hadoop's locality-first dispatcher would
 *      run them (locality-list.ts), against the forecast capacity so the plan is feasible; a job that
 *      cannot fit in the window is rejected too (Cuckoo III-A: resources "within a time window").
 * The plan's `placement` is the WRR replicas, not scheduler-driven placement (Salamander III-C): a task
 * that runs on a node holding none of its replicas is a remote task for the evaluator and the simulator.
 * Deterministic: one construction.
 */
export const cuckoo: Strategy = {
  name: 'cuckoo',
  description: 'Cuckoo: forecast host weights (Alg. 1), WRR chunk placement with replicas and admission (Alg. 2), Hadoop locality-first list schedule',
  run(ctx: StrategyContext): StrategyResult {
    const { model } = ctx;
    const wrr = cuckooPlacement(model);
    const { schedule, remote } = localityListSchedule(model, wrr.accepted, wrr.replicas);
    ctx.report(1, schedule.scheduledTasks(), schedule.makespan());
    const rejectedByWeight = wrr.accepted.reduce((n, a) => n + (a ? 0 : 1), 0);
    const rejectedByWindow = model.jobs.reduce((n, _, j) => n + (wrr.accepted[j] && !schedule.accepted[j] ? 1 : 0), 0);
    return {
      schedule,
      iterations: 1,
      placement: wrrPlacementDoc(model, schedule, wrr.replicas),
      stats: { placement: 'wrr', remoteTasks: remote, rejectedByWeight, rejectedByWindow },
    };
  },
};

/**
 * The plan's placement: the WRR replicas of every scheduled task that reads a chunk. A task that reads
 * none has nothing to be remote from; it gets the scheduler-driven entry (its own node first), so every
 * assignment has a placement of `replication` nodes as FORMAT.md's examples do.
 */
function wrrPlacementDoc(model: Model, schedule: Schedule, replicas: readonly (number[] | null)[]): PlacementDoc[] {
  return placeChunks(model, schedule).map((p) => {
    const g = model.stageIndex.get(stageKey(p.job, p.stage))!;
    const r = replicas[model.stages[g].firstTask + p.task];
    return r === null ? p : { ...p, nodes: r.map((k) => model.nodeIds[k]) };
  });
}
