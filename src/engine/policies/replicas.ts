import type { Simulator } from '../simulate/simulator';

/**
 * Chunk replicas for a policy's simulation: where the instance says its blocks live (`blocks`), there;
 * otherwise `replication` distinct nodes drawn uniformly at random (HDFS without rack awareness), as
 * Hadoop's default placement. Tasks reading nothing (no inputMB, no blocks) get none.
 */
export function givenOrRandomReplicas(sim: Simulator): void {
  const { model } = sim;
  for (let i = 0; i < model.nTasks; i++) {
    const s = model.stages[model.taskStage[i]];
    if (s.blocks) sim.replicas[i] = Array.from(s.blocks[model.taskOrdinal[i]]);
    else if (s.inputMB > 0) sim.replicas[i] = randomNodes(sim, Math.min(model.jobs[s.job].replication, model.K));
  }
}

/** n distinct nodes uniformly at random (partial Fisher-Yates on the simulation's seeded generator). */
export function randomNodes(sim: Simulator, n: number): number[] {
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
