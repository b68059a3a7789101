import { Model } from '../model/model';
import type { Simulator } from '../simulate/simulator';
import { HADOOP_SLOTS_PER_NODE, LocalityDispatch } from './locality-dispatch';

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

  protected place(sim: Simulator): void {
    const { model } = this;
    for (let i = 0; i < model.nTasks; i++) {
      if (model.stages[model.taskStage[i]].inputMB <= 0) continue;
      sim.replicas[i] = randomNodes(sim, Math.min(model.jobs[model.taskJob[i]].replication, model.K));
    }
  }
}

/** n distinct nodes uniformly at random (partial Fisher-Yates on the simulation's seeded generator). */
function randomNodes(sim: Simulator, n: number): number[] {
  const K = sim.model.K;
  const pool = Array.from({ length: K }, (_, k) => k);
  for (let r = 0; r < n; r++) {
    const j = r + sim.rng.int(K - r);
    const t = pool[r];
    pool[r] = pool[j];
    pool[j] = t;
  }
  return pool.slice(0, n);
}
