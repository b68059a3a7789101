import type { Model } from '../model/model';
import type { PlanDoc } from '../model/types';
import type { SimulatorView } from './host';
import { PlanDriver, PlanDriverOptions } from './plan-driver';
import type { ReplanTrigger } from './replan-state';

/** What the closed loop answers when the run gives it a reason to re-plan (closed-loop.ts). */
export interface ReplanTriggers {
  /** Whether kills by the QoS controller (or the stall timeout) are reasons, and the loss or return of a node. */
  readonly onKill: boolean;
  readonly onNodeLost: boolean;
  /** True when a re-plan comes at once (the run pauses after this event): what needs a new place waits for it. */
  fire(sim: SimulatorView, trigger: ReplanTrigger): boolean;
}

/**
 * A plan replay that is re-planned as it runs (closed-loop.ts): a PlanDriver that tells the loop of kills and of
 * nodes lost or back. When the loop re-plans at once, the tasks that need a new place (the killed ones, those
 * due on a lost node) wait for the new plan rather than being relaunched one by one where room is now: the
 * re-plan places them, and it comes before anything else happens (the run pauses after the event). When the
 * loop defers (a re-plan came too recently), they are relaunched as a static replay does.
 */
export class ReplanDriver extends PlanDriver {
  private holding = false;
  private held: number[] = [];

  constructor(
    model: Model,
    plan: PlanDoc,
    private readonly triggers: ReplanTriggers,
    options: PlanDriverOptions = {},
  ) {
    super(model, plan, options);
  }

  override onKilled(sim: SimulatorView, i: number, k?: number): void {
    // Lost nodes' tasks are killed before onNodeLost: their kills are the loss's.
    const lost = k !== undefined && sim.lost[k] > 0;
    if (lost ? this.triggers.onNodeLost : this.triggers.onKill) this.fire(sim, lost ? 'node-lost' : 'kill');
    super.onKilled(sim, i, k);
  }

  onNodeLost(sim: SimulatorView): void {
    if (this.triggers.onNodeLost) this.fire(sim, 'node-lost');
  }

  onNodeBack(sim: SimulatorView): void {
    if (this.triggers.onNodeLost) this.fire(sim, 'node-back');
  }

  /** A new plan: what was held takes its place in it. */
  override adopt(sim: SimulatorView, plan: PlanDoc): void {
    this.holding = false;
    this.held = [];
    super.adopt(sim, plan);
  }

  /** No re-plan after all (nothing to plan, or the replanner failed): what was held is relaunched as in a static replay. */
  release(): void {
    this.holding = false;
    const held = this.held;
    this.held = [];
    for (const i of held) this.replace(i);
  }

  protected override replace(i: number): void {
    if (this.holding) this.held.push(i);
    else super.replace(i);
  }

  private fire(sim: SimulatorView, trigger: ReplanTrigger): void {
    if (this.triggers.fire(sim, trigger)) this.holding = true;
  }
}
