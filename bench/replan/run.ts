/**
 * The runs of one scenario of the re-planning experiment (bench/replan.ts): the static plan, the same plan
 * re-planned as it runs (every `everySeconds` and on kills and node losses), and the online policies, all
 * against the same actual load and node losses.
 */
import type { Objective } from '../../src/engine/contracts/strategy';
import { loadInstance } from '../../src/engine/model/model';
import { SimReport, simulatePlan, simulatePolicy, simulateReplanning } from '../../src/engine/simulation';
import { solve } from '../../src/engine/solve';
import type { Scenario } from './scenario';

export const POLICIES = ['hadoop', 'cuckoo', 'posum'] as const;

/** Short names of the plans' objectives in the approaches' names: `static:rev`, `replan:mk`. */
export const OBJECTIVE_TAGS: Record<Objective, string> = { revenue: 'rev', 'tasks-then-makespan': 'mk' };

/** The approaches of a run, in the report's order: per objective the static plan and the re-planned one, then the policies. */
export function approaches(objectives: readonly Objective[]): string[] {
  return [...objectives.flatMap((o) => [`static:${OBJECTIVE_TAGS[o]}`, `replan:${OBJECTIVE_TAGS[o]}`]), ...POLICIES];
}

export interface RunSettings {
  strategy: string;
  /** Each gives a static plan and a re-planned run (the re-plans solve for the same objective). */
  objectives: Objective[];
  /** The first plan's budget, and each re-plan's. */
  budgetMs: number;
  replanBudgetMs: number;
  everySeconds: number;
  minGapSeconds: number;
  seed: number;
}

/** One approach on one scenario. */
export interface Row {
  instance: string;
  seed: number;
  approach: string;
  makespanSeconds: number;
  unfinishedJobs: number;
  deadlineMisses: number;
  relaunches: number;
  revenue: number;
  remoteTasks: number;
  /** Simulation wall time (the re-planned run: with its solves). */
  runMs: number;
  /** The re-planned run's re-plans. */
  replan?: ReplanSummary;
}

export interface ReplanSummary {
  adopted: number;
  failed: number;
  byTrigger: Record<string, number>;
  skipped: Record<string, number>;
  /** Per adopted re-plan: tasks of the previous plan moved (plan.stats.replan.movedTasks; null when not said), and solve ms. */
  moved: (number | null)[];
  solveMs: number[];
  errors: string[];
}

export interface ScenarioResult {
  instance: string;
  seed: number;
  tasks: number;
  jobs: number;
  /** Per objective tag: the first plan's makespan (s), revenue and solve time. */
  plans: Record<string, { makespanSeconds: number; revenue: number | null; solveMs: number }>;
  outages: Scenario['outages'];
  injected: Scenario['injected'];
  rows: Row[];
}

export async function runScenario(sc: Scenario, seed: number, s: RunSettings, log: (line: string) => void): Promise<ScenarioResult> {
  const model = loadInstance(sc.doc);
  const S = model.slotSeconds;
  const common = { actual: sc.actual, outages: sc.outages, seed: s.seed };
  const rows: Row[] = [];
  const plans: ScenarioResult['plans'] = {};
  const add = (approach: string, r: SimReport, runMs: number, replan?: ReplanSummary) => {
    rows.push({
      instance: sc.doc.name,
      seed,
      approach,
      makespanSeconds: r.makespanSeconds,
      unfinishedJobs: r.unfinishedJobs,
      deadlineMisses: r.deadlineMisses,
      relaunches: r.relaunches,
      revenue: r.revenue,
      remoteTasks: r.remoteTasks,
      runMs,
      ...(replan ? { replan } : {}),
    });
    log(`  ${approach.padEnd(10)} makespan ${(r.makespanSeconds / 3600).toFixed(2)} h, ${r.deadlineMisses} missed, ${r.unfinishedJobs} unfinished, ${r.relaunches} relaunched, revenue ${r.revenue}${replan ? `, ${replan.adopted} re-plans (${replan.failed} failed)` : ''} [${runMs} ms]`);
  };
  for (const objective of s.objectives) {
    const tag = OBJECTIVE_TAGS[objective];
    let t = Date.now();
    const plan = await solve(model, { strategy: s.strategy, objective, timeBudgetMs: s.budgetMs, seed: s.seed });
    plans[tag] = { makespanSeconds: plan.objective.makespanSlots * S, revenue: plan.objective.revenue ?? null, solveMs: Date.now() - t };
    t = Date.now();
    add(`static:${tag}`, simulatePlan(model, plan, { ...common, qos: 'salamander' }), Date.now() - t);
    t = Date.now();
    const closed = await simulateReplanning(model, plan, {
      ...common,
      qos: 'salamander',
      replan: { everySeconds: s.everySeconds, onKill: true, onNodeLost: true, minGapSeconds: s.minGapSeconds, strategy: s.strategy, objective, timeBudgetMs: s.replanBudgetMs, seed: s.seed },
    });
    const replans = closed.replan.replans;
    const byTrigger: Record<string, number> = {};
    for (const r of replans) byTrigger[r.trigger] = (byTrigger[r.trigger] ?? 0) + 1;
    const adopted = replans.filter((r) => r.outcome === 'adopted');
    add(`replan:${tag}`, closed, Date.now() - t, {
      adopted: adopted.length,
      failed: replans.length - adopted.length,
      byTrigger,
      skipped: closed.replan.skipped,
      moved: adopted.map((r) => r.movedTasks),
      solveMs: replans.map((r) => r.solveMs),
      errors: [...new Set(replans.filter((r) => r.error).map((r) => r.error!))].slice(0, 3),
    });
  }
  for (const p of POLICIES) {
    const t = Date.now();
    add(p, simulatePolicy(model, p, common), Date.now() - t);
  }
  return { instance: sc.doc.name, seed, tasks: model.nTasks, jobs: model.jobs.length, plans, outages: sc.outages, injected: sc.injected, rows };
}
