import { FC_DEFAULTS, PosumScore } from '../../evaluate/posum-score';
import { getQos } from '../../qos';
import { buildFromJobOrder } from '../../schedule/sgs';
import { Simulator } from '../../simulate/simulator';
import { ActualUsage } from '../../simulate/usage';
import { Strategy, StrategyContext, StrategyResult } from '../../contracts/strategy';
import { PosumAllocation, PosumAllocationPolicy } from './allocation';
import { choose } from './choose';
import { MEMBERS } from './params';
import { ProvisioningPolicy } from './provisioning';

/**
 * POSUM's portfolio as a solve strategy (issue 24): each of the 16 members (allocation x provisioning) runs
 * online in the simulator against the instance's forecast (its usage), and is scored (Table I); the member
 * nearest the ideal point (choose.ts, with the solve's scoreWeights, else 1/1/1) wins, and its run becomes a plan: its jobs
 * in the order the member started them, each placed whole by the serial list scheduler (a plan is slotted
 * and checked by the evaluator; the member's continuous-time run is not). Every member's P is in the plan's
 * stats. Members the budget (or a stop flag) leaves no time for are not scored. A fixed construction, not
 * an anytime search: on a small instance it may end before a stop flag is raised. It lives with POSUM (it
 * runs POSUM's members in the simulator); strategies/index.ts registers it, so no strategy family imports the
 * simulator or a policy.
 */
export const portfolio: Strategy = {
  name: 'portfolio',
  description: "POSUM's 16 members simulated against the forecast; the best one's job order, list-scheduled (issue 24)",
  run(ctx: StrategyContext): StrategyResult {
    const { model } = ctx;
    const scores: (PosumScore & { allocation: string; provisioning: string })[] = [];
    const orders: number[][] = [];
    for (const m of MEMBERS) {
      if (scores.length > 0 && ctx.budget.stopNow(scores.length)) break; // the budget, or a stop flag
      const sim = new Simulator(model, new ActualUsage(model, model.doc.usage), new PosumAllocationPolicy(model, m.allocation as PosumAllocation), {
        qos: getQos('none'),
        seed: 1,
        provisioner: new ProvisioningPolicy(model, m.provisioning),
      });
      const r = sim.run();
      scores.push({ allocation: m.allocation, provisioning: m.provisioning, ...r.score });
      // Jobs by when the member started their first task (never started: last, in instance order).
      const first = model.jobs.map((job) => {
        let t = Infinity;
        for (let i = job.firstTask; i < job.firstTask + job.taskCount; i++) if (sim.startedAt[i] >= 0) t = Math.min(t, sim.startedAt[i]);
        return t;
      });
      orders.push(model.jobs.map((_, j) => j).sort((a, b) => first[a] - first[b] || a - b));
    }
    const weights = ctx.scoreWeights ?? FC_DEFAULTS;
    const best = choose(scores, weights);
    const schedule = buildFromJobOrder(model, orders[best.index], null);
    ctx.report(scores.length, schedule.scheduledTasks(), schedule.makespan());
    return {
      schedule,
      iterations: scores.length,
      stats: {
        weights,
        member: { allocation: scores[best.index].allocation, provisioning: scores[best.index].provisioning },
        members: scores.map((s, n) => ({ ...s, distance: Math.round(best.distances[n] * 1e4) / 1e4 })),
      },
    };
  },
};
