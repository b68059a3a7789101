import { Model } from '../model/model';
import type { Simulator } from '../simulate/simulator';
import { containerSlots } from './container-slots';
import { cuckooPlacement } from './cuckoo-plan';
import { HADOOP_SLOTS_PER_NODE, LocalityDispatch } from './locality-dispatch';

/**
 * Cuckoo (Cuckoo III): host weights from the forecast and the safety margin (Alg. 1), weighted
 * round-robin chunk placement with replicas and accept/reject of each job within the window (Alg. 2);
 * at run time Hadoop's locality-first scheduler dispatches the tasks (Salamander II-C: "Cuckoo uses the
 * default Hadoop scheduler ... and implicitly improves it by improving the data placement") on slots its
 * containers were sized for from the same forecast (container-slots.ts), fixed for the run.
 */
export class CuckooPolicy extends LocalityDispatch {
  readonly name = 'cuckoo';

  constructor(model: Model, slotsPerNode = HADOOP_SLOTS_PER_NODE) {
    super(model, slotsPerNode);
  }

  protected place(sim: Simulator): void {
    const r = cuckooPlacement(this.model);
    sim.accepted.set(r.accepted);
    sim.slots.set(containerSlots(this.model, r.hostWeights, r.accepted, this.slotsPerNode));
    r.replicas.forEach((nodes, i) => (sim.replicas[i] = nodes));
  }
}
