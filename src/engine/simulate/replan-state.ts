import type { Model } from '../model/model';
import type { FrozenAssignmentDoc, FrozenDoc, InstanceDoc, NodeSpec, PlanDoc } from '../model/types';
import { LeastFetch } from '../network/least-fetch';
import { TaskState } from './driver';
import type { SimulatorView } from './host';
import type { NodeOutage } from './outages';

/** What made a closed loop re-plan (closed-loop.ts). */
export type ReplanTrigger = 'periodic' | 'kill' | 'node-lost' | 'node-back';

/** An instance to re-plan: the run's instance with its started tasks frozen (docs/FORMAT.md, Frozen assignments) and the usage as known now. */
export type ReplanInstance = InstanceDoc & { frozen: FrozenDoc };

/** A node lost at the re-plan (outages.ts): since when, and until when the re-plan takes it to be lost. */
export interface LostNode {
  node: string;
  fromSeconds: number;
  /**
   * When the re-plan takes it to come back: its announced return; else, with an expected outage length
   * (ReplanLoopOptions.expectedOutageSeconds), that long after the loss (or after now, once overdue); else null:
   * lost to the end of the window.
   */
  backSeconds: number | null;
  /** The return was announced with the loss (Outage.returnKnown). */
  announced: boolean;
}

/** What a replanner gets (closed-loop.ts): the state of the run at a re-plan. */
export interface ReplanState {
  trigger: ReplanTrigger;
  nowSeconds: number;
  /**
   * The re-plan's first slot: the first slot boundary at or after now, ceil(nowSeconds / slotSeconds). The new
   * plan starts nothing before it; what has started by now (within that slot too) is frozen, and a task that
   * has ended by now ends by it in the model as well (durations are rounded up to whole slots).
   */
  nowSlot: number;
  /**
   * The instance with `frozen` = every task that has started (running, fetching or ended) on its actual node at
   * its actual start slot, and `usage` = the regular customers' actual load observed before nowSlot, the
   * forecast (the instance's own usage) from it on, and 1 on every metric of a lost node while it is taken to be
   * lost (no plan can use it).
   */
  instance: ReplanInstance;
  /** The plan the run followed until now (SolveOptions.previous). */
  previous: PlanDoc;
  /** Nodes lost now. */
  lost: LostNode[];
}

/** Why there was nothing to re-plan. */
export type ReplanSkip = 'window-over' | 'nothing-to-plan';

export function replanSkip(x: ReplanState | ReplanSkip): x is ReplanSkip {
  return typeof x === 'string';
}

/**
 * The state of the run at `now` for a re-plan (ReplanState), or why none can be made: the window is over
 * (nowSlot >= horizon.slots: no plan can start anything) or every task of the accepted jobs has started.
 *
 * The frozen start of a task is the slot its last attempt started in. The model's durations are whole slots
 * (rounded up) while the run's are not, so three cases move it (`frozen` must respect the stage order and the
 * capacity from nowSlot on, docs/FORMAT.md): a task that started in the slot its predecessor ended in would
 * start before that predecessor ends in the model, so it starts at that end (the least the model allows); a
 * task that has ended but would still run at nowSlot in the model (its predecessor pushed it) starts
 * earlier, so as to end by nowSlot, where its predecessors allow (else it would hold a task slot it has left);
 * a task still running that would have ended in the model (throttled, it runs longer) starts later, so as to
 * hold its node in slot nowSlot. Likewise, where the
 * frozen tasks alone would need more than the forecast leaves them from nowSlot on (they run now, so the
 * actual load left them room, or, ended in the run, they still end later in the model), the usage handed over
 * is lowered to leave them exactly that room (fitFrozen): nothing else is planned there, and no plan is refused
 * for what already runs. In a plan that prices transfers, a frozen task's fetchSlots is the least fetch time from where
 * its predecessors ran, or the fetch it really took when longer.
 */
export function replanState(sim: SimulatorView, trigger: ReplanTrigger, previous: PlanDoc, outages: readonly NodeOutage[], expectedOutageSeconds?: number): ReplanState | ReplanSkip {
  const model = sim.model;
  const { T, slotSeconds: S } = model;
  const now = sim.now;
  const nowSlot = Math.ceil(now / S - 1e-9);
  if (nowSlot >= T) return 'window-over';
  const started = (i: number) => sim.state[i] === TaskState.Transfer || sim.state[i] === TaskState.Running || sim.state[i] === TaskState.Done;
  let toPlan = 0;
  for (let i = 0; i < model.nTasks; i++) if (sim.accepted[model.taskJob[i]] && !started(i)) toPlan++;
  if (toPlan === 0) return 'nothing-to-plan';

  const least = model.pricesTransfers ? new LeastFetch(model) : null;
  const end = new Int32Array(model.nTasks).fill(-1);
  const frozenTasks: number[] = [];
  const assignments: FrozenAssignmentDoc[] = [];
  // Tasks are numbered stage by stage in a topological order of each job's stages: predecessors come first.
  for (let i = 0; i < model.nTasks; i++) {
    if (!sim.accepted[model.taskJob[i]] || !started(i)) continue;
    const k = sim.node[i];
    const g = model.taskStage[i];
    const stage = model.stages[g];
    let lo = model.jobs[stage.job].release;
    for (const p of stage.preds) {
      const ps = model.stages[p];
      for (let n = ps.firstTask; n < ps.firstTask + ps.tasks; n++) lo = Math.max(lo, end[n]);
    }
    let fetch = 0;
    if (least) {
      const fetched = sim.computeStartedAt[i] >= 0 ? sim.computeStartedAt[i] : now;
      fetch = Math.max(least.slots(i, k, sim.node), Math.ceil((fetched - sim.startedAt[i]) / S - 1e-9));
    }
    const length = fetch + stage.dur[k];
    let start = Math.max(lo, Math.floor(sim.startedAt[i] / S + 1e-9));
    // Ended: out of the way from nowSlot on where its predecessors allow. Running past its length in the model: still on its node at nowSlot.
    if (sim.state[i] === TaskState.Done) start = Math.max(lo, Math.min(start, nowSlot - length));
    else start = Math.max(start, nowSlot + 1 - length);
    start = Math.min(start, nowSlot);
    const a: FrozenAssignmentDoc = { job: model.jobs[stage.job].id, stage: stage.id, task: model.taskOrdinal[i], node: model.nodeIds[k], start };
    if (least) a.fetchSlots = fetch;
    end[i] = start + length;
    frozenTasks.push(i);
    assignments.push(a);
  }

  const lost = lostNodes(model, outages, now, expectedOutageSeconds);
  const usage = usageNow(sim, nowSlot, lost);
  const nodes = [...model.doc.nodes];
  fitFrozen(model, usage, nodes, frozenTasks, sim.node, end, nowSlot);
  const instance: ReplanInstance = { ...model.doc, nodes, usage, frozen: { nowSlot, assignments } };
  return { trigger, nowSeconds: now, nowSlot, instance, previous, lost };
}

/** The outages under way at `now`, as a re-plan knows them (LostNode.backSeconds). */
function lostNodes(model: Model, outages: readonly NodeOutage[], now: number, expected: number | undefined): LostNode[] {
  return outages
    .filter((o) => o.from <= now + 1e-9 && o.to > now + 1e-9)
    .map((o) => {
      const announced = o.returnKnown && o.to !== Infinity;
      const back = announced ? o.to : expected === undefined ? null : o.from + expected > now ? o.from + expected : now + expected;
      return { node: model.nodeIds[o.k], fromSeconds: o.from, backSeconds: back, announced };
    });
}

/** node -> metric -> per slot: observed before nowSlot, the forecast from it on, 1 where a node is taken to be lost. */
function usageNow(sim: SimulatorView, nowSlot: number, lost: LostNode[]): Record<string, Record<string, number[]>> {
  const model = sim.model;
  const { T, slotSeconds: S } = model;
  const forecast = model.doc.usage ?? {};
  const out: Record<string, Record<string, number[]>> = {};
  model.nodeIds.forEach((id, k) => {
    const per: Record<string, number[]> = {};
    const lostUntil = lost
      .filter((l) => l.node === id)
      .reduce((to, l) => Math.max(to, l.backSeconds === null ? T : Math.min(T, Math.ceil(l.backSeconds / S - 1e-9))), -1);
    model.metrics.forEach((m, mi) => {
      const f = own(own(forecast, id), m);
      per[m] = Array.from({ length: T }, (_, t) => (t < nowSlot ? sim.usage.at(k, mi, t) : t < lostUntil ? 1 : (f?.[t] ?? 0)));
    });
    out[id] = per;
  });
  return out;
}

/**
 * Makes room for the frozen tasks alone wherever the usage handed over leaves them less from nowSlot on
 * (available = C x max(0, 1 - U - S) - reserved; FORMAT.md): the usage is lowered there to leave them exactly
 * their room. Where even an idle node is too small (the simulator throttles CPU, so a node may run more CPU than it
 * has: a shifted plan's tasks overlapping), the node's capacity of that metric is raised to what they need and the
 * usage of every slot raised with it, so that every other slot keeps the room it had.
 */
function fitFrozen(model: Model, usage: Record<string, Record<string, number[]>>, nodes: NodeSpec[], frozen: number[], node: ArrayLike<number>, end: Int32Array, nowSlot: number): void {
  const { T, M } = model;
  const load = new Map<number, Float64Array>();
  for (const i of frozen) {
    const k = node[i];
    let l = load.get(k);
    if (!l) load.set(k, (l = new Float64Array(M * T)));
    const d = model.stages[model.taskStage[i]].demand;
    for (let t = nowSlot; t < Math.min(T, end[i]); t++) for (let m = 0; m < M; m++) l[m * T + t] += d[m];
  }
  for (const [k, l] of load) {
    const id = model.nodeIds[k];
    model.metrics.forEach((metric, m) => {
      const margin = model.doc.safetyMargin?.[metric] ?? 0;
      const reserved = model.doc.reserved?.[id]?.[metric];
      const series = usage[id][metric];
      const need = (t: number) => l[m * T + t] + (reserved?.[t] ?? 0);
      let cap = model.capacity[k][m];
      let most = 0;
      for (let t = nowSlot; t < T; t++) most = Math.max(most, need(t));
      if (most > cap * (1 - margin) + 1e-9 && margin < 1) {
        const raised = most / (1 - margin);
        for (let t = 0; t < T; t++) series[t] = Math.min(1, Math.max(0, 1 - margin - (cap * Math.max(0, 1 - series[t] - margin)) / raised));
        nodes[k] = { ...nodes[k], capacity: { ...nodes[k].capacity, [metric]: raised } };
        cap = raised;
      }
      if (!(cap > 0)) return;
      for (let t = nowSlot; t < T; t++) {
        const n = need(t);
        if (n > 0 && n > cap * Math.max(0, 1 - series[t] - margin) + 1e-9) series[t] = Math.max(0, 1 - margin - n / cap);
      }
    });
  }
}

function own<V>(obj: Record<string, V> | undefined, key: string): V | undefined {
  return obj !== undefined && Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}
