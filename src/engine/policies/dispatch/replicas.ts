import type { SimulatorView } from '../../simulate/host';

/**
 * Chunk replicas for a policy's simulation: where the instance says its blocks live (`blocks`), there;
 * otherwise `replication` distinct nodes drawn uniformly at random (HDFS without rack awareness), as
 * Hadoop's default placement. Tasks reading nothing (no inputMB, no blocks) get none.
 */
export function givenOrRandomReplicas(sim: SimulatorView): void {
  const { model } = sim;
  for (let i = 0; i < model.nTasks; i++) {
    const s = model.stages[model.taskStage[i]];
    if (s.blocks) sim.replicas[i] = Array.from(s.blocks[model.taskOrdinal[i]]);
    else if (s.inputMB > 0) sim.replicas[i] = randomNodes(sim, Math.min(model.jobs[s.job].replication, model.K));
  }
}

/** n distinct nodes uniformly at random (partial Fisher-Yates on the simulation's seeded generator). */
export function randomNodes(sim: SimulatorView, n: number): number[] {
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

/**
 * RWS's block placement (ACO-BP paper [11]; HMJS places blocks as RWS does, same authors): replaces every chunk's replicas by `replication` distinct nodes drawn with probability proportional to
 * capacity x speed.
 */
export function rouletteReplicas(sim: SimulatorView): void {
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
function spin(sim: SimulatorView, weight: number[], n: number): number[] {
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
