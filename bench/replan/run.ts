/**
 * The runs of one scenario of the re-planning experiment (bench/replan.ts): the static plan, the same plan
 * re-planned as it runs (every `everySeconds` and on kills and node losses), and the online policies, all
 * against the same actual load and node losses.
 */
import type { Objective } from '../../src/engine/contracts/strategy';
import { loadInstance } from '../../src/engine/model/model';
import type { InstanceDoc } from '../../src/engine/model/types';
import { SimReport, simulatePlan, simulatePolicy, simulateReplanning, UsageDoc } from '../../src/engine/simulation';
import { solve } from '../../src/engine/solve';
import type { Scenario } from './scenario';

export const POLICIES = ['hadoop', 'cuckoo', 'posum'];

/** Short names of the plans' objectives in the approaches' names: `static:rev`, `replan:mk`. */
export const OBJECTIVE_TAGS: Record<Objective, string> = { revenue: 'rev', 'tasks-then-makespan': 'mk' };

/**
 * The approaches of a run, in the report's order: per objective the static plan, the same plan with early starts
 * (`earlyStart`), the re-planned one and (with `oracle`) the plan made knowing the actual load and the losses from
 * the start; then the policies.
 */
export function approaches(s: Pick<RunSettings, 'objectives' | 'oracle' | 'policies' | 'earlyStart'>): string[] {
  const tags = s.objectives.map((o) => OBJECTIVE_TAGS[o]);
  return [...tags.flatMap((t) => [`static:${t}`, ...(s.earlyStart ? [`static+early:${t}`] : []), `replan:${t}`, ...(s.oracle ? [`oracle:${t}`] : [])]), ...s.policies];
}

export interface RunSettings {
  strategy: string;
  /** Each gives a static plan and a re-planned run (the re-plans solve for the same objective). */
  objectives: Objective[];
  /**
   * Per objective, the first plan's and each re-plan's iterations: ls is then the same for a seed whatever else
   * runs on the machine (a time budget on a shared machine gives another plan each run). `timeCapMs` only keeps a
   * solve from running away.
   */
  iterations: Partial<Record<Objective, { plan: number; replan: number }>>;
  timeCapMs: number;
  /** Also the plan made on the actual load with the losses known (what a plan can do at best: a diagnostic, not a competitor). */
  oracle: boolean;
  /** The online policies run (default hadoop, cuckoo, posum). */
  policies: string[];
  everySeconds: number;
  minGapSeconds: number;
  seed: number;
  /**
   * The re-planned and oracle runs start a ready task before its planned start where its planned node has room now
   * (SimulateOptions.earlyStart), and the static plan is also replayed so (`static+early:*`); `static:*` keeps
   * the plan's starts. Absent in results written before it: false.
   */
  earlyStart?: boolean;
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

/** The scenario's instance with the actual load as its forecast and every loss in it (usage 1 while the node is lost). */
function clairvoyant(sc: Scenario): InstanceDoc {
  const S = sc.doc.horizon.slotSeconds;
  const T = sc.doc.horizon.slots;
  const usage: UsageDoc = JSON.parse(JSON.stringify(sc.actual));
  for (const o of sc.outages) {
    const to = o.toSeconds == null ? T : Math.min(T, Math.ceil(o.toSeconds / S));
    for (const m of sc.doc.metrics) {
      const series = (usage[o.node] ??= {})[m] ?? (usage[o.node][m] = Array<number>(T).fill(0));
      for (let t = Math.floor(o.fromSeconds / S); t < to; t++) series[t] = 1;
    }
  }
  return { ...sc.doc, usage };
}

export async function runScenario(sc: Scenario, seed: number, s: RunSettings, log: (line: string) => void): Promise<ScenarioResult> {
  const model = loadInstance(sc.doc);
  const S = model.slotSeconds;
  const common = { actual: sc.actual, outages: sc.outages, seed: s.seed };
  const follow = { earlyStart: s.earlyStart === true };
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
    const budget = s.iterations[objective]!;
    const plan = await solve(model, { strategy: s.strategy, objective, maxIterations: budget.plan, timeBudgetMs: s.timeCapMs, seed: s.seed });
    plans[tag] = { makespanSeconds: plan.objective.makespanSlots * S, revenue: plan.objective.revenue ?? null, solveMs: Date.now() - t };
    t = Date.now();
    add(`static:${tag}`, simulatePlan(model, plan, { ...common, qos: 'salamander' }), Date.now() - t);
    if (follow.earlyStart) {
      t = Date.now();
      add(`static+early:${tag}`, simulatePlan(model, plan, { ...common, ...follow, qos: 'salamander' }), Date.now() - t);
    }
    t = Date.now();
    const closed = await simulateReplanning(model, plan, {
      ...common,
      ...follow,
      qos: 'salamander',
      replan: { everySeconds: s.everySeconds, onKill: true, onNodeLost: true, minGapSeconds: s.minGapSeconds, strategy: s.strategy, objective, maxIterations: budget.replan, timeBudgetMs: s.timeCapMs, seed: s.seed },
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
    if (s.oracle) {
      const known = loadInstance(clairvoyant(sc));
      t = Date.now();
      const best = await solve(known, { strategy: s.strategy, objective, maxIterations: budget.plan, timeBudgetMs: s.timeCapMs, seed: s.seed });
      add(`oracle:${tag}`, simulatePlan(known, best, { ...common, ...follow, qos: 'salamander' }), Date.now() - t);
    }
  }
  for (const p of s.policies) {
    const t = Date.now();
    add(p, simulatePolicy(model, p, common), Date.now() - t);
  }
  return { instance: sc.doc.name, seed, tasks: model.nTasks, jobs: model.jobs.length, plans, outages: sc.outages, injected: sc.injected, rows };
}
