import { makespanBound } from '../../bounds/makespan';
import { Budget } from '../../budget/budget';
import type { Model } from '../../model/model';
import { toPlanDoc } from '../../schedule/plan-doc';
import type { PlanDoc } from '../../model/types';
import { placeChunks } from '../../placement/placement';
import { matchBlocks } from '../../placement/match-blocks';
import { Random } from '../../random';
import type { SimulatorView } from '../../simulate/host';
import type { Strategy } from '../../contracts/strategy';
import { JobOrderDispatch } from '../dispatch/job-order-dispatch';

/**
 * Fallow's own plan-based scheduling as a seventeenth portfolio member (issue 24, beyond the paper): at a
 * decision, `ls` solves the present (look-ahead.ts's instance) within a small budget; the look-ahead scores
 * the plan replayed as planned; when chosen, the live run follows it as a priority: every free container
 * goes to the waiting task of the stage the plan starts earliest. `ls` comes through the strategy lookup
 * (PolicyContext.strategy), so that the online side imports no strategy family.
 */
export function planPresent(strategy: ((name: string) => Strategy | undefined) | undefined, model: Model, budgetMs: number, seed: number): PlanDoc {
  const ls = strategy?.('ls');
  if (!ls) throw new Error('the ls member needs strategy ls: give the policy the strategy lookup (PolicyContext.strategy)');
  const result = ls.run({
    model,
    objective: 'tasks-then-makespan',
    rng: new Random(seed),
    budget: Budget.start({ timeBudgetMs: budgetMs }),
    lowerBound: makespanBound(model).makespanSlots,
    report: () => {},
  });
  if (result instanceof Promise) throw new Error('ls answered asynchronously: the portfolio needs its plan at once');
  if (model.stages.some((s) => s.blocks)) matchBlocks(model, result.schedule);
  const plan = toPlanDoc(model, result.schedule, 'ls');
  plan.placement = placeChunks(model, result.schedule);
  return plan;
}

/** Follows a plan of the present as priorities: stages by the earliest planned start of their tasks (seconds from now). */
export class PlanOrderPolicy extends JobOrderDispatch {
  readonly name = 'ls-plan';
  /** Per stage of the live model: when the current plan starts its first task (absolute seconds); Infinity when it does not. */
  private readonly plannedAt: Float64Array;

  constructor(model: Model) {
    super(model, 0);
    this.offerOnlyNodesWithRoom = true;
    this.plannedAt = new Float64Array(model.stages.length).fill(Infinity);
  }

  /** Takes a plan of the present (made at `now`, on an instance whose jobs and stages keep their ids). */
  follow(plan: PlanDoc, now: number, slotSeconds: number): void {
    this.plannedAt.fill(Infinity);
    for (const a of plan.assignments) {
      const g = this.model.stageIndex.get(`${a.job}\u0000${a.stage}`);
      if (g !== undefined) this.plannedAt[g] = Math.min(this.plannedAt[g], now + a.start * slotSeconds);
    }
  }

  protected order(_sim: SimulatorView, stages: number[]): number[] {
    return stages.sort((a, b) => this.plannedAt[a] - this.plannedAt[b] || a - b);
  }
}
