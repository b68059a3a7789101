import type { Model } from '../model/model';
import type { Simulator } from '../simulate/simulator';
import { JobOrderDispatch } from './job-order-dispatch';
import { HEARTBEAT_SECONDS } from './locality-dispatch';

/**
 * Hadoop's Fair Scheduler, the ACO-BP paper's FS baseline ([10]: fair sharing between the running jobs,
 * blind to the nodes' heterogeneity), with delay scheduling for locality (Zaharia et al., EuroSys 2010,
 * which the Fair Scheduler ships): whenever a node has room, the job furthest below its fair share (least
 * dominant share of the cluster held by its running tasks) is offered it; a job with no task local to the
 * node is skipped, and only after waiting `delaySeconds` may it run a rack-local task, after twice that
 * any task. A local launch resets its wait. `delaySeconds` 0 is FS without delay scheduling.
 * Choice (the paper says neither): the delay is one heartbeat (3 s) per level, Hadoop's default order of magnitude.
 */
export class FairPolicy extends JobOrderDispatch {
  readonly name: string;

  constructor(model: Model, delaySeconds = HEARTBEAT_SECONDS) {
    super(model, delaySeconds);
    this.name = delaySeconds > 0 ? 'fair' : 'fair-nodelay';
  }

  /** The job furthest below its fair share first: the least dominant share of the cluster held. */
  protected order(_sim: Simulator, stages: number[]): number[] {
    return stages.sort((a, b) => this.share(this.model.stages[a].job) - this.share(this.model.stages[b].job) || a - b);
  }
}
