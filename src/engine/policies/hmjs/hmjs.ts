import { resourceUtilisation } from '../../aco-bp/equations';
import type { Model } from '../../model/model';
import type { SimulatorView } from '../../simulate/host';
import { ContainerDispatch } from '../dispatch/container-dispatch';
import { rouletteReplicas } from '../dispatch/replicas';
import type { Policy } from '../policy';

/**
 * HMJS, the ACO-BP paper's third baseline ([11], seeds/003 L59, L99, L324, L342): 2D bin packing of the
 * ready tasks into the VMs by simple runtime heuristics about the physical and virtual resources, the
 * processor's performance and the resources used or left in each bin. Reading chosen (the paper gives no
 * formula): whenever resources free up, VMs are served fastest first, then the ones with most room left;
 * each takes, among the jobs' ready tasks, the one that leaves it best packed (highest RU, Eq. 2, once
 * added), a local task winning a tie, until nothing fits. Blocks are placed as RWS places them (the same
 * authors' [11]).
 */
export class HmjsPolicy extends ContainerDispatch {
  readonly name = 'hmjs';

  constructor(model: Model) {
    super(model);
  }

  prepare(sim: SimulatorView): void {
    super.prepare(sim);
    rouletteReplicas(sim);
  }

  protected assign(sim: SimulatorView): void {
    const { model } = this;
    const stages = this.readyStages(sim);
    if (stages.length === 0) return;
    const room = model.nodeIds.map((_, k) => sim.freeCapacity(k));
    const share = (k: number) => Math.min(...Array.from(room[k], (f, m) => (model.capacity[k][m] > 0 ? f / model.capacity[k][m] : 1)));
    const nodes = model.nodeIds.map((_, k) => k).sort((a, b) => model.speed[b] - model.speed[a] || share(b) - share(a) || a - b);
    const load = new Float64Array(model.M);
    for (const k of nodes) {
      for (;;) {
        let best = -1;
        let bestRu = -1;
        let bestLocal = false;
        for (const g of stages) {
          const i = this.pick(sim, g, k, 2);
          if (i < 0 || sim.headroom(k, i) < 0) continue;
          const d = model.stages[g].demand;
          for (let m = 0; m < model.M; m++) load[m] = model.capacity[k][m] - room[k][m] + d[m];
          const ru = resourceUtilisation(load, model.capacity[k]);
          const local = sim.isLocal(i, k);
          if (ru > bestRu + 1e-12 || (Math.abs(ru - bestRu) <= 1e-12 && local && !bestLocal)) (best = i), (bestRu = ru), (bestLocal = local);
        }
        if (best < 0) break;
        sim.launch(best, k);
        room[k] = sim.freeCapacity(k);
      }
    }
  }
}

export const hmjs: Policy = {
  name: 'hmjs',
  description: "2D bin packing of ready tasks into the VMs, fastest first (the ACO-BP paper's HMJS baseline)",
  create: ({ model }) => ({ driver: new HmjsPolicy(model) }),
};
