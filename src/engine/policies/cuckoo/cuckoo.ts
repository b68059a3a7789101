import { Model } from '../../model/model';
import type { SimulatorView } from '../../simulate/host';
import { cuckooPlacement } from '../../placement/cuckoo-plan';
import { HADOOP_SLOTS_PER_NODE, LocalityDispatch } from '../dispatch/locality-dispatch';
import type { Policy } from '../policy';

/**
 * Cuckoo (Cuckoo III): host weights from the forecast and the safety margin (Alg. 1), weighted
 * round-robin chunk placement with replicas and accept/reject of each job within the window (Alg. 2);
 * at run time Hadoop's locality-first scheduler dispatches the tasks (Salamander II-C: "Cuckoo uses the
 * default Hadoop scheduler ... and implicitly improves it by improving the data placement").
 *
 * The forecast acts through placement and admission only; every TaskTracker keeps Hadoop's fixed slots.
 * Both papers configure "each TaskTracker to run 20 slots" for Cuckoo (Cuckoo IV-A, Salamander IV-A),
 * Salamander IV-B blames Cuckoo's relaunches on that "fixed number of slots" and credits Salamander alone
 * with resizing slots "according to the predictions", and Cuckoo adapts its containers at run time only
 * reactively, through the QoS controller (III-A step 7, III-D). The "only 18 cores are considered" of
 * III-C sizes the pool the placement planner weighs (Alg. 1), not the slots.
 */
export class CuckooPolicy extends LocalityDispatch {
  readonly name = 'cuckoo';

  constructor(model: Model, slotsPerNode = HADOOP_SLOTS_PER_NODE) {
    super(model, slotsPerNode);
  }

  protected place(sim: SimulatorView): void {
    const r = cuckooPlacement(this.model);
    sim.accepted.set(r.accepted);
    r.replicas.forEach((nodes, i) => (sim.replicas[i] = nodes));
  }
}

export const cuckoo: Policy = {
  name: 'cuckoo',
  description: "Cuckoo's host weights and WRR placement with admission, then Hadoop's scheduler",
  create: ({ model }) => ({ driver: new CuckooPolicy(model) }),
};
