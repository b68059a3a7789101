import { Model } from '../model/model';
import type { Simulator } from '../simulate/simulator';
import { hostWeights } from './host-weights';
import { HADOOP_SLOTS_PER_NODE, LocalityDispatch } from './locality-dispatch';
import { wrrPlacement } from './wrr-placement';

/**
 * Cuckoo (Cuckoo III): host weights from the forecast and the safety margin (Alg. 1), weighted
 * round-robin chunk placement with replicas and accept/reject of each job within the window (Alg. 2);
 * at run time Hadoop's locality-first scheduler on fixed slots dispatches the tasks (III: "Cuckoo uses
 * the default Hadoop scheduler ... and implicitly improves it by improving the data placement").
 */
export class CuckooPolicy extends LocalityDispatch {
  readonly name = 'cuckoo';

  constructor(model: Model, slotsPerNode = HADOOP_SLOTS_PER_NODE) {
    super(model, slotsPerNode);
  }

  protected place(sim: Simulator): void {
    const r = wrrPlacement(this.model, hostWeights(this.model));
    sim.accepted.set(r.accepted);
    r.replicas.forEach((nodes, i) => (sim.replicas[i] = nodes));
  }
}
