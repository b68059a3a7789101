import type { SimulatorView } from '../../simulate/host';
import { JobOrderDispatch } from './job-order-dispatch';

/**
 * Fair sharing between the running jobs (Hadoop's Fair Scheduler): the ready stages ordered by their job's
 * dominant share of the cluster, least first. The ordering of policies fair (and fair-nodelay) and rws, which
 * differ only in where blocks are placed and in their names.
 */
export abstract class FairShareDispatch extends JobOrderDispatch {
  /** The job furthest below its fair share first: the least dominant share of the cluster held. */
  protected order(_sim: SimulatorView, stages: number[]): number[] {
    return stages.sort((a, b) => this.share(this.model.stages[a].job) - this.share(this.model.stages[b].job) || a - b);
  }
}
