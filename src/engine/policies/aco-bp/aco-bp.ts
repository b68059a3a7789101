import { decide } from '../../aco-bp/decide';
import { ACO_BP_DEFAULTS, AcoBpParams } from '../../aco-bp/params';
import { preferredMask, stageCaps, waitsForPreferred } from '../../aco-bp/stage-caps';
import { clusterCapacity } from '../../evaluate/batch-kpis';
import type { Model } from '../../model/model';
import type { SimulatorView } from '../../simulate/host';
import { ContainerDispatch } from '../dispatch/container-dispatch';
import type { Policy } from '../policy';

/**
 * ACO-BP as an online policy (seeds/003, Algorithm 1 step 5): every C_t (20 s) of simulated time, one
 * decision (src/engine/aco-bp/decide.ts) against the capacity each node actually has free then (the
 * regular customers' actual load, the margin, the running tasks): each node gets a combination, a number
 * of containers per ready stage; until the next decision a container that ends starts the next ready task
 * of its stage on that node (local first, then rack-local, then any), as long as it fits.
 */
export class AcoBpPolicy extends ContainerDispatch {
  readonly name = 'aco-bp';
  /** Containers per node and stage allowed in the current period. */
  private quota: Int32Array[];
  /** Per node: the decision let it run non-local tasks (else its containers take only tasks whose block it holds, Eq. 5). */
  private anyTask: Uint8Array;
  private readonly readySince: Float64Array;
  private decisions = 0;

  constructor(model: Model, private readonly params: AcoBpParams = ACO_BP_DEFAULTS) {
    super(model);
    this.quota = model.nodeIds.map(() => new Int32Array(model.stages.length));
    this.anyTask = new Uint8Array(model.K);
    this.readySince = new Float64Array(model.stages.length).fill(-1);
  }

  private started = false;

  onReady(sim: SimulatorView, i: number): void {
    super.onReady(sim, i);
    // The first decision comes with the first ready task (the batch's submission), then one every C_t.
    if (!this.started) (this.started = true), sim.timer(sim.now, 0);
  }

  protected timer(sim: SimulatorView): void {
    this.decide(sim);
    sim.timer(sim.now + this.params.periodSeconds, 0);
  }

  protected assign(sim: SimulatorView): void {
    const { model } = this;
    for (let k = 0; k < model.K; k++) {
      const q = this.quota[k];
      const running = new Int32Array(model.stages.length);
      for (const i of sim.nodes[k].tasks) running[model.taskStage[i]]++;
      for (let g = 0; g < q.length; g++) {
        while (running[g] < q[g]) {
          const i = this.pick(sim, g, k, this.anyTask[k] ? 2 : 0);
          if (i < 0 || sim.headroom(k, i) < 0) break;
          sim.launch(i, k);
          running[g]++;
        }
      }
    }
  }

  private decide(sim: SimulatorView): void {
    const { model } = this;
    const ready = this.readyStages(sim);
    this.quota = model.nodeIds.map(() => new Int32Array(model.stages.length));
    if (ready.length === 0) return;
    for (const g of ready) if (this.readySince[g] < 0) this.readySince[g] = sim.now;
    const M = model.M;
    const total = clusterCapacity(model);
    const bins = model.nodeIds.map((_, k) => {
      const free = sim.freeCapacity(k);
      const used = Float64Array.from(sim.nodes[k].used);
      const capacity = Float64Array.from(used, (u, m) => u + free[m]);
      return { capacity, used, slotsLeft: Infinity };
    });
    const allocated = ready.map(() => new Float64Array(M));
    const active = new Set<number>(ready.map((g) => model.stages[g].job));
    for (const node of sim.nodes)
      for (const i of node.tasks) {
        active.add(model.taskJob[i]);
        const j = ready.indexOf(model.taskStage[i]);
        if (j >= 0) for (let m = 0; m < M; m++) allocated[j][m] += model.stages[model.taskStage[i]].demand[m];
      }
    const counts = ready.map((g) => this.waitingCounts(sim, g));
    const localCaps = bins.map(() => new Int32Array(ready.length));
    const anyCaps = bins.map(() => new Int32Array(ready.length));
    ready.forEach((g, j) => {
      const waited = (sim.now - this.readySince[g]) / this.params.periodSeconds;
      const preferred = waitsForPreferred(model, g, waited, this.params) ? preferredMask(model, g, (i) => sim.node[i], this.params) : null;
      const caps = stageCaps(model.K, counts[j].waiting, counts[j].local, preferred);
      for (let k = 0; k < model.K; k++) (anyCaps[k][j] = caps.any[k]), (localCaps[k][j] = caps.local[k]);
    });
    const decision = decide(
      { bins, localCaps, anyCaps, pool: { demands: ready.map((g) => model.stages[g].demand), remaining: Int32Array.from(counts, (c) => c.waiting), allocated, total, activeJobs: active.size } },
      this.params,
      sim.rng,
    );
    this.decisions++;
    // A node's quota of a stage counts what already runs there: the decision adds to it (a node whose
    // containers are all busy keeps them, and keeps refilling them, until the next decision).
    for (let k = 0; k < model.K; k++) for (const i of sim.nodes[k].tasks) this.quota[k][model.taskStage[i]]++;
    decision.counts.forEach((c, k) => c.forEach((n, j) => (this.quota[k][ready[j]] += n)));
    this.anyTask = decision.nonLocal;
  }
}

export const acoBp: Policy = {
  name: 'aco-bp',
  description: "ACO-BP's colony deciding containers per node every C_t (seeds/003)",
  create: ({ model }) => ({ driver: new AcoBpPolicy(model) }),
};
