import { Model } from '../../model/model';
import type { SimulatorView } from '../../simulate/host';
import { HADOOP_SLOTS_PER_NODE, LocalityDispatch } from '../dispatch/locality-dispatch';
import { randomNodes } from '../dispatch/replicas';
import type { Policy } from '../policy';

/**
 * The Hadoop default baseline (Cuckoo II-B and IV): every job is accepted; each chunk gets `replication`
 * (default 3) replicas on distinct nodes drawn uniformly at random (HDFS without rack awareness); tasks
 * go FIFO, locality first, to fixed slots. It never looks at a forecast.
 */
export class HadoopPolicy extends LocalityDispatch {
  readonly name = 'hadoop';

  constructor(model: Model, slotsPerNode = HADOOP_SLOTS_PER_NODE) {
    super(model, slotsPerNode);
  }

  protected place(sim: SimulatorView): void {
    const { model } = this;
    for (let i = 0; i < model.nTasks; i++) {
      if (model.stages[model.taskStage[i]].inputMB <= 0) continue;
      sim.replicas[i] = randomNodes(sim, Math.min(model.jobs[model.taskJob[i]].replication, model.K));
    }
  }
}

export const hadoop: Policy = {
  name: 'hadoop',
  description: "Hadoop's default: random replicas, FIFO locality-first to fixed slots",
  create: ({ model }) => ({ driver: new HadoopPolicy(model) }),
};
