import { clusterCapacity } from '../evaluate/batch-kpis';
import type { Model } from '../model/model';
import type { Simulator } from '../simulate/simulator';
import { ContainerDispatch } from './container-dispatch';
import { HEARTBEAT_SECONDS } from './locality-dispatch';

/**
 * Hadoop's Fair Scheduler, the ACO-BP paper's FS baseline ([10]: fair sharing between the running jobs,
 * blind to the nodes' heterogeneity), with delay scheduling for locality (Zaharia et al., EuroSys 2010,
 * which the Fair Scheduler ships): whenever a node has room, the job furthest below its fair share (least
 * dominant share of the cluster held by its running tasks) is offered it; a job with no task local to the
 * node is skipped, and only after waiting `delaySeconds` may it run a rack-local task, after twice that
 * any task. A local launch resets its wait. `delaySeconds` 0 is FS without delay scheduling.
 * Choice (the paper says neither): the delay is one heartbeat (3 s) per level, Hadoop's default order of magnitude.
 */
export class FairPolicy extends ContainerDispatch {
  readonly name: string;
  /** When each job was first skipped for locality since its last local launch (-1: not waiting). */
  private readonly waitSince: Float64Array;
  private readonly timerAt: Float64Array;
  private nextNode = 0;

  constructor(model: Model, private readonly delaySeconds = HEARTBEAT_SECONDS) {
    super(model);
    this.name = delaySeconds > 0 ? 'fair' : 'fair-nodelay';
    this.waitSince = new Float64Array(model.jobs.length).fill(-1);
    this.timerAt = new Float64Array(model.jobs.length).fill(-1);
  }

  protected assign(sim: Simulator): void {
    const { model } = this;
    const stages = this.readyStages(sim);
    if (stages.length === 0) return;
    const total = clusterCapacity(model);
    const held = model.jobs.map(() => new Float64Array(model.M));
    for (const node of sim.nodes) for (const i of node.tasks) for (let m = 0; m < model.M; m++) held[model.taskJob[i]][m] += model.stages[model.taskStage[i]].demand[m];
    const share = (j: number) => {
      let d = 0;
      for (let m = 0; m < model.M; m++) if (total[m] > 0) d = Math.max(d, held[j][m] / total[m]);
      return d;
    };
    const first = this.nextNode;
    this.nextNode = (this.nextNode + 1) % model.K;
    for (let n = 0; n < model.K; n++) {
      const k = (first + n) % model.K;
      for (let launched = true; launched; ) {
        launched = false;
        const order = stages.filter((g) => this.pickable(sim, g)).sort((a, b) => share(model.stages[a].job) - share(model.stages[b].job) || a - b);
        for (const g of order) {
          const j = model.stages[g].job;
          const i = this.pick(sim, g, k, this.level(sim, j));
          if (i < 0) {
            this.startWaiting(sim, j);
            continue;
          }
          if (sim.headroom(k, i) < 0) continue; // this node has no room for the job's tasks: the next job may fit
          const local = sim.isLocal(i, k);
          sim.launch(i, k);
          for (let m = 0; m < model.M; m++) held[j][m] += model.stages[g].demand[m];
          if (local) this.waitSince[j] = -1;
          launched = true;
          break;
        }
      }
    }
  }

  private pickable(sim: Simulator, g: number): boolean {
    return this.hasWaiting(sim, g);
  }

  /** The locality a job may take now: 0 node-local, 1 rack-local after one delay, 2 any after two. */
  private level(sim: Simulator, j: number): 0 | 1 | 2 {
    if (this.delaySeconds <= 0) return 2;
    const since = this.waitSince[j];
    if (since < 0) return 0;
    const waited = sim.now - since;
    return waited >= 2 * this.delaySeconds ? 2 : waited >= this.delaySeconds ? 1 : 0;
  }

  /** A skipped job starts its wait; a timer brings the scheduler back when its next level opens. */
  private startWaiting(sim: Simulator, j: number): void {
    if (this.waitSince[j] < 0) this.waitSince[j] = sim.now;
    const next = this.waitSince[j] + (this.level(sim, j) + 1) * this.delaySeconds;
    if (this.level(sim, j) < 2 && this.timerAt[j] < next - 1e-9) {
      this.timerAt[j] = next;
      sim.timer(next, j);
    }
  }
}
