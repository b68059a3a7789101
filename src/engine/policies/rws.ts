import type { Model } from '../model/model';
import type { Simulator } from '../simulate/simulator';
import { HEARTBEAT_SECONDS } from './locality-dispatch';
import { FairPolicy } from './fair';

/**
 * RWS, the ACO-BP paper's second baseline ([11], seeds/003 section II and L324/L342): the input blocks are
 * placed across the heterogeneous VMs by a roulette wheel whose slices are proportional to each VM's
 * processing capacity (its vCPUs times its speed), so weak VMs hold, and attract, fewer tasks; the tasks
 * are then scheduled by the Fair Scheduler with delay scheduling. Choices (the paper leaves them open):
 * the placement is done when the data is loaded, before the batch (no transfer is charged, as for blocks
 * HDFS placed), with `replication` distinct VMs per block; the first metric stands for the vCPUs.
 */
export class RwsPolicy extends FairPolicy {
  readonly name = 'rws';

  constructor(model: Model, delaySeconds = HEARTBEAT_SECONDS) {
    super(model, delaySeconds);
  }

  prepare(sim: Simulator): void {
    super.prepare(sim);
    rouletteReplicas(sim);
  }
}

/** Replaces every chunk's replicas by `replication` distinct nodes drawn with probability proportional to capacity x speed. */
export function rouletteReplicas(sim: Simulator): void {
  const { model } = sim;
  const weight = model.nodeIds.map((_, k) => Math.max(0, model.capacity[k][0]) * model.speed[k]);
  for (let i = 0; i < model.nTasks; i++) {
    const s = model.stages[model.taskStage[i]];
    if (!s.blocks && !(s.inputMB > 0)) continue;
    const n = Math.min(model.jobs[s.job].replication, model.K, weight.filter((w) => w > 0).length);
    sim.replicas[i] = spin(sim, weight, n);
  }
}

/** n distinct nodes, each draw proportional to the weights of the nodes not drawn yet. */
function spin(sim: Simulator, weight: number[], n: number): number[] {
  const out: number[] = [];
  const left = weight.slice();
  for (let r = 0; r < n; r++) {
    const total = left.reduce((a, b) => a + b, 0);
    let x = sim.rng.next() * total;
    let pick = left.findIndex((w) => (x -= w) < 0 && w > 0);
    if (pick < 0) pick = left.findIndex((w) => w > 0);
    out.push(pick);
    left[pick] = 0;
  }
  return out;
}
