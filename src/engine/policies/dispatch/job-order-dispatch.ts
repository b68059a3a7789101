import { clusterCapacity } from '../../evaluate/batch-kpis';
import type { Model } from '../../model/model';
import type { SimulatorView } from '../../simulate/host';
import { ContainerDispatch } from './container-dispatch';
import { sharedByCopies } from '../../simulate/fork';

/**
 * The loop shared by the container policies that rank jobs at every free container (the Fair Scheduler,
 * POSUM's allocation policies): nodes in turn, and on each node, while a task fits, the ready stages in the
 * subclass's order offer it their next task; with `delaySeconds` > 0, delay scheduling (Zaharia et al.,
 * EuroSys 2010): a job with no task local to the node is skipped, and only after waiting `delaySeconds`
 * may it run a rack-local task, after twice that any task; a local launch resets its wait.
 */
export abstract class JobOrderDispatch extends ContainerDispatch {
  /** When each job was first skipped for locality since its last local launch (-1: not waiting). */
  private readonly waitSince: Float64Array;
  private readonly timerAt: Float64Array;
  private nextNode = 0;
  protected readonly total: Float64Array;
  /**
   * Per job and metric (held[j * M + m]): the demand its running tasks hold (kept up to date within one assign).
   * One array, not one per job: a copy of the run (POSUM's look-ahead) copies one object instead of a job's count.
   */
  protected held = new Float64Array(0);
  /**
   * Offer only nodes with room for the smallest ready task (Hadoop offers a node when a container frees).
   * The Fair Scheduler keeps false, its behaviour so far: a full node is offered too, and a job with no task
   * local to it starts its locality wait; its benchmark figures rest on that.
   */
  protected offerOnlyNodesWithRoom = false;

  constructor(model: Model, protected readonly delaySeconds: number) {
    super(model);
    this.waitSince = new Float64Array(model.jobs.length).fill(-1);
    this.timerAt = new Float64Array(model.jobs.length).fill(-1);
    this.total = sharedByCopies(clusterCapacity(model)); // read only: shared by the run's copies
  }

  /** The ready stages in the order they are offered the next free container (called before every launch). */
  protected abstract order(sim: SimulatorView, stages: number[]): number[];

  /** Dominant share of the cluster that job j's running tasks hold. */
  protected share(j: number): number {
    let d = 0;
    for (let m = 0; m < this.model.M; m++) if (this.total[m] > 0) d = Math.max(d, this.held[j * this.model.M + m] / this.total[m]);
    return d;
  }

  protected assign(sim: SimulatorView): void {
    const { model } = this;
    const stages = this.readyStages(sim);
    if (stages.length === 0) return;
    const M = model.M;
    if (this.held.length === model.jobs.length * M) this.held.fill(0);
    else this.held = new Float64Array(model.jobs.length * M);
    for (const node of sim.nodes) for (const i of node.tasks) for (let m = 0; m < M; m++) this.held[model.taskJob[i] * M + m] += model.stages[model.taskStage[i]].demand[m];
    const first = this.nextNode;
    this.nextNode = (this.nextNode + 1) % model.K;
    const smallest = this.offerOnlyNodesWithRoom ? smallestDemand(model, stages) : null;
    for (let n = 0; n < model.K; n++) {
      const k = (first + n) % model.K;
      if (smallest && !hasRoom(sim, k, smallest)) continue;
      for (let launched = true; launched; ) {
        launched = false;
        for (const g of this.order(sim, stages.filter((s) => this.hasWaiting(sim, s)))) {
          const j = model.stages[g].job;
          const i = this.pick(sim, g, k, this.level(sim, j));
          if (i < 0) {
            this.startWaiting(sim, j);
            continue;
          }
          if (sim.headroom(k, i) < 0) continue; // this node has no room for the job's tasks: the next job may fit
          const local = sim.isLocal(i, k);
          sim.launch(i, k);
          for (let m = 0; m < M; m++) this.held[j * M + m] += model.stages[g].demand[m];
          if (local) this.waitSince[j] = -1;
          launched = true;
          break;
        }
      }
    }
  }

  /** The locality a job may take now: 0 node-local, 1 rack-local after one delay, 2 any after two. */
  private level(sim: SimulatorView, j: number): 0 | 1 | 2 {
    if (this.delaySeconds <= 0) return 2;
    const since = this.waitSince[j];
    if (since < 0) return 0;
    const waited = sim.now - since;
    return waited >= 2 * this.delaySeconds ? 2 : waited >= this.delaySeconds ? 1 : 0;
  }

  /** A skipped job starts its wait; a timer brings the scheduler back when its next level opens. */
  private startWaiting(sim: SimulatorView, j: number): void {
    if (this.delaySeconds <= 0) return;
    if (this.waitSince[j] < 0) this.waitSince[j] = sim.now;
    const next = this.waitSince[j] + (this.level(sim, j) + 1) * this.delaySeconds;
    if (this.level(sim, j) < 2 && this.timerAt[j] < next - 1e-9) {
      this.timerAt[j] = next;
      sim.timer(next, j);
    }
  }
}

/** Per metric, the least any of the stages' tasks demands. */
function smallestDemand(model: Model, stages: number[]): Float64Array {
  const out = new Float64Array(model.M).fill(Infinity);
  for (const g of stages) for (let m = 0; m < model.M; m++) out[m] = Math.min(out[m], model.stages[g].demand[m]);
  return out;
}

/** Node k takes new tasks and has room, on every metric, for the smallest demand. */
function hasRoom(sim: SimulatorView, k: number, smallest: Float64Array): boolean {
  if (!sim.accepting(k)) return false;
  for (let m = 0; m < smallest.length; m++) if (sim.free(k, m) + 1e-9 < smallest[m]) return false;
  return true;
}
