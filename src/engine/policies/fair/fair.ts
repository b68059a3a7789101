import type { Model } from '../../model/model';
import { FairShareDispatch } from '../dispatch/fair-share-dispatch';
import { HEARTBEAT_SECONDS } from '../dispatch/locality-dispatch';
import type { Policy } from '../policy';

/**
 * Hadoop's Fair Scheduler, the ACO-BP paper's FS baseline ([10]: fair sharing between the running jobs,
 * blind to the nodes' heterogeneity), with delay scheduling for locality (Zaharia et al., EuroSys 2010,
 * which the Fair Scheduler ships): whenever a node has room, the job furthest below its fair share (least
 * dominant share of the cluster held by its running tasks) is offered it; a job with no task local to the
 * node is skipped, and only after waiting `delaySeconds` may it run a rack-local task, after twice that
 * any task. A local launch resets its wait. `delaySeconds` 0 is FS without delay scheduling.
 * Choice (the paper says neither): the delay is one heartbeat (3 s) per level, Hadoop's default order of magnitude.
 */
export class FairPolicy extends FairShareDispatch {
  readonly name: string;

  constructor(model: Model, delaySeconds = HEARTBEAT_SECONDS) {
    super(model, delaySeconds);
    this.name = delaySeconds > 0 ? 'fair' : 'fair-nodelay';
  }
}

export const fair: Policy = {
  name: 'fair',
  description: "Hadoop's Fair Scheduler with delay scheduling (the ACO-BP paper's FS baseline)",
  create: ({ model }) => ({ driver: new FairPolicy(model) }),
};

export const fairNoDelay: Policy = {
  name: 'fair-nodelay',
  description: "Hadoop's Fair Scheduler without delay scheduling",
  create: ({ model }) => ({ driver: new FairPolicy(model, 0) }),
};
