import type { Model } from '../../model/model';
import type { SimulatorView } from '../../simulate/host';
import { FairShareDispatch } from '../dispatch/fair-share-dispatch';
import { HEARTBEAT_SECONDS } from '../dispatch/locality-dispatch';
import { rouletteReplicas } from '../dispatch/replicas';
import type { Policy } from '../policy';

/**
 * RWS, the ACO-BP paper's second baseline ([11], seeds/003 section II and L324/L342): the input blocks are
 * placed across the heterogeneous VMs by a roulette wheel whose slices are proportional to each VM's
 * processing capacity (its vCPUs times its speed), so weak VMs hold, and attract, fewer tasks; the tasks
 * are then scheduled by the Fair Scheduler with delay scheduling. Choices (the paper leaves them open):
 * the placement is done when the data is loaded, before the batch (no transfer is charged, as for blocks
 * HDFS placed), with `replication` distinct VMs per block; the first metric stands for the vCPUs.
 */
export class RwsPolicy extends FairShareDispatch {
  readonly name = 'rws';

  constructor(model: Model, delaySeconds = HEARTBEAT_SECONDS) {
    super(model, delaySeconds);
  }

  prepare(sim: SimulatorView): void {
    super.prepare(sim);
    rouletteReplicas(sim);
  }
}

export const rws: Policy = {
  name: 'rws',
  description: 'roulette-wheel block placement by capacity, then the Fair Scheduler (the ACO-BP paper\'s RWS baseline)',
  create: ({ model }) => ({ driver: new RwsPolicy(model) }),
};
