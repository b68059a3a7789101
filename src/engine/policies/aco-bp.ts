import { decide } from '../aco-bp/decide';
import { preferredBins } from '../aco-bp/equations';
import { ACO_BP_DEFAULTS, AcoBpParams } from '../aco-bp/params';
import type { Model } from '../model/model';
import type { Simulator } from '../simulate/simulator';
import { ContainerDispatch } from './container-dispatch';

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
  private readonly readySince: Float64Array;
  private decisions = 0;

  constructor(model: Model, private readonly params: AcoBpParams = ACO_BP_DEFAULTS) {
    super(model);
    this.quota = model.nodeIds.map(() => new Int32Array(model.stages.length));
    this.readySince = new Float64Array(model.stages.length).fill(-1);
  }

  prepare(sim: Simulator): void {
    super.prepare(sim);
    sim.timer(0, 0);
  }

  protected timer(sim: Simulator): void {
    this.decide(sim);
    sim.timer(sim.now + this.params.periodSeconds, 0);
  }

  protected assign(sim: Simulator): void {
    const { model } = this;
    for (let k = 0; k < model.K; k++) {
      const q = this.quota[k];
      const running = new Int32Array(model.stages.length);
      for (const i of sim.nodes[k].tasks) running[model.taskStage[i]]++;
      for (let g = 0; g < q.length; g++) {
        while (running[g] < q[g]) {
          const i = this.pick(sim, g, k, 2);
          if (i < 0 || sim.headroom(k, i) < 0) break;
          sim.launch(i, k);
          running[g]++;
        }
      }
    }
  }

  private decide(sim: Simulator): void {
    const { model } = this;
    const ready = this.readyStages(sim);
    this.quota = model.nodeIds.map(() => new Int32Array(model.stages.length));
    if (ready.length === 0) return;
    for (const g of ready) if (this.readySince[g] < 0) this.readySince[g] = sim.now;
    const M = model.M;
    const total = new Float64Array(M);
    const bins = model.nodeIds.map((_, k) => {
      const free = sim.freeCapacity(k);
      const used = Float64Array.from(sim.nodes[k].used);
      const capacity = new Float64Array(M);
      for (let m = 0; m < M; m++) {
        capacity[m] = used[m] + free[m];
        total[m] += model.capacity[k][m];
      }
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
      const s = model.stages[g];
      const patient = s.preds.length > 0 && (sim.now - this.readySince[g]) / this.params.periodSeconds < this.params.reducePatiencePeriods;
      const preferred = patient ? this.preferred(sim, g) : null;
      for (let k = 0; k < model.K; k++) {
        anyCaps[k][j] = preferred && !preferred[k] ? 0 : counts[j].waiting;
        localCaps[k][j] = preferred ? anyCaps[k][j] : counts[j].local[k];
      }
    });
    const decision = decide(
      { bins, localCaps, anyCaps, pool: { demands: ready.map((g) => model.stages[g].demand), remaining: Int32Array.from(counts, (c) => c.waiting), allocated, total, activeJobs: active.size } },
      this.params,
      sim.rng,
    );
    this.decisions++;
    decision.counts.forEach((c, k) => c.forEach((n, j) => (this.quota[k][ready[j]] = n)));
  }

  /** Pref_VM (Eq. 8-9) of a stage after others: nodes of the preferred rack by the output the earlier stages left on them. */
  private preferred(sim: Simulator, g: number): Uint8Array {
    const { model } = this;
    const output = new Float64Array(model.K);
    for (const q of model.stages[g].preds) {
      const pred = model.stages[q];
      for (let i = pred.firstTask; i < pred.firstTask + pred.tasks; i++) if (sim.node[i] >= 0) output[sim.node[i]] += pred.outputMB > 0 ? pred.outputMB : 1;
    }
    const mask = new Uint8Array(model.K);
    for (const k of preferredBins(output, model.racks, this.params.reduceBinShare).bins) mask[k] = 1;
    return mask;
  }
}
