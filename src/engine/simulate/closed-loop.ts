import type { Model } from '../model/model';
import type { PlanDoc } from '../model/types';
import type { SimOptions } from './driver';
import type { SimulatorView } from './host';
import type { PlanDriverOptions } from './plan-driver';
import { ReplanDriver, ReplanTriggers } from './replan-driver';
import { replanSkip, ReplanSkip, replanState, ReplanState, ReplanTrigger } from './replan-state';
import type { RunReport } from './run-report';
import { Simulator } from './simulator';
import type { ActualUsage } from './usage';

/** Makes the new plan from the state of the run (the entry point's default solves it: simulation.ts). */
export type Replanner = (state: ReplanState) => PlanDoc | Promise<PlanDoc>;

/** When a plan replay re-plans (issue 39, closed loop). */
export interface ReplanLoopOptions {
  /** Re-plan every this many simulated seconds (at the first slot boundary after), besides the events; none by default. */
  everySeconds?: number;
  /** Re-plan when the QoS controller (or the stall timeout) kills a task (default true). */
  onKill?: boolean;
  /** Re-plan when a node is lost (an outage of the actual-usage input) and when it comes back (default true). */
  onNodeLost?: boolean;
  /**
   * Least simulated seconds between two re-plans (default one slot): an event sooner after the last re-plan is
   * met as a static replay meets it (relaunch where room is) and the re-plan comes when the gap is over.
   */
  minGapSeconds?: number;
  /**
   * How long a re-plan expects a node lost without an announced return to stay lost (after its loss; once
   * overdue, after now). Default: it does not come back within the window.
   */
  expectedOutageSeconds?: number;
}

/** One re-plan of a run. */
export interface ReplanRecord {
  atSeconds: number;
  nowSlot: number;
  trigger: ReplanTrigger;
  /** adopted: the run follows the new plan; failed: the replanner threw, the run followed the plan it had. */
  outcome: 'adopted' | 'failed';
  frozenTasks: number;
  /** From the new plan's stats.replan (null when the plan does not say: an engine without re-planning). */
  movedTasks: number | null;
  keptTasks: number | null;
  newTasks: number | null;
  droppedTasks: number | null;
  /** Wall-clock time of the replanner (the simulated clock does not move while it runs). */
  solveMs: number;
  /** The new plan's makespan (slots) and rejected jobs. */
  makespanSlots: number | null;
  rejectedJobs: number | null;
  error?: string;
}

export interface ClosedLoopResult {
  report: RunReport;
  replans: ReplanRecord[];
  /** Reasons to re-plan met when there was nothing to re-plan, by why. */
  skipped: Record<ReplanSkip, number>;
  /** The last plan the run followed. */
  finalPlan: PlanDoc;
}

/**
 * Replays `plan` closed-loop: the run pauses at every reason to re-plan (a kill, a node lost or back, every
 * `everySeconds`), hands the state of the run to the replanner (replan-state.ts: the started tasks frozen where
 * and when they ran, the load observed so far and the forecast after, the nodes lost), and goes on with the new
 * plan (ReplanDriver.adopt). The simulated clock stands still while the replanner works: the re-plan takes
 * effect at the instant it was asked for.
 */
export async function runClosedLoop(model: Model, actual: ActualUsage, plan: PlanDoc, options: SimOptions, loop: ReplanLoopOptions, replanner: Replanner, follow: PlanDriverOptions = {}): Promise<ClosedLoopResult> {
  const S = model.slotSeconds;
  const every = loop.everySeconds;
  if (every !== undefined && !(every > 0)) throw new Error(`replan.everySeconds must be > 0, got ${every}`);
  const gap = loop.minGapSeconds ?? S;
  if (!(gap >= 0)) throw new Error(`replan.minGapSeconds must be >= 0, got ${gap}`);
  if (loop.expectedOutageSeconds !== undefined && !(loop.expectedOutageSeconds > 0)) throw new Error(`replan.expectedOutageSeconds must be > 0, got ${loop.expectedOutageSeconds}`);
  if ((options.reduceSlowstart ?? 1) !== 1) throw new Error('re-planning needs the strict map -> reduce barrier (reduceSlowstart 1): a started stage freezes after its predecessors');
  const replans: ReplanRecord[] = [];
  const skipped: Record<ReplanSkip, number> = { 'window-over': 0, 'nothing-to-plan': 0 };
  let current = plan;
  let last = -Infinity;
  let pending: ReplanTrigger | null = null;
  let deferred: ReplanTrigger | null = null;
  const boundaryAfter = (t: number) => Math.ceil(t / S - 1e-9) * S;
  const triggers: ReplanTriggers = {
    onKill: loop.onKill ?? true,
    onNodeLost: loop.onNodeLost ?? true,
    fire: (view: SimulatorView, trigger: ReplanTrigger): boolean => {
      if (pending !== null) return true;
      if (view.now >= last + gap - 1e-9) {
        pending = trigger;
        view.pause();
        return true;
      }
      if (deferred === null) sim.pauseAt(last + gap);
      deferred ??= trigger;
      return false;
    },
  };
  const driver = new ReplanDriver(model, plan, triggers, follow);
  const sim = new Simulator(model, actual, driver, options);
  const outages = options.outages ?? [];
  // The next periodic re-plan: `every` after the last re-plan (or the last time there was nothing to re-plan).
  let nextPeriodic = Infinity;
  const schedulePeriodic = () => {
    if (every === undefined) return;
    nextPeriodic = boundaryAfter(sim.now + every);
    sim.pauseAt(nextPeriodic);
  };

  sim.begin();
  schedulePeriodic();
  while (sim.advance()) {
    const now = sim.now;
    let trigger: ReplanTrigger | null = pending;
    if (trigger === null && deferred !== null && now >= last + gap - 1e-9) trigger = deferred;
    if (trigger === null && now >= nextPeriodic - 1e-9) trigger = 'periodic';
    if (trigger === null) continue;
    pending = null;
    deferred = null;
    const state = replanState(sim, trigger, current, outages, loop.expectedOutageSeconds);
    if (replanSkip(state)) {
      skipped[state]++;
      driver.release();
      if (trigger === 'periodic') schedulePeriodic();
      continue;
    }
    const t0 = Date.now();
    try {
      const next = await replanner(state);
      driver.adopt(sim, next);
      current = next;
      replans.push(record(state, 'adopted', Date.now() - t0, next));
    } catch (e) {
      driver.release();
      replans.push({ ...record(state, 'failed', Date.now() - t0, null), error: (e as Error).message });
    }
    last = now;
    schedulePeriodic();
  }
  return { report: sim.report(), replans, skipped, finalPlan: current };
}

function record(state: ReplanState, outcome: ReplanRecord['outcome'], solveMs: number, plan: PlanDoc | null): ReplanRecord {
  const r = (plan?.stats as { replan?: { movedTasks?: number; keptTasks?: number; newTasks?: number; droppedTasks?: number } } | undefined)?.replan;
  return {
    atSeconds: state.nowSeconds,
    nowSlot: state.nowSlot,
    trigger: state.trigger,
    outcome,
    frozenTasks: state.instance.frozen.assignments.length,
    movedTasks: r?.movedTasks ?? null,
    keptTasks: r?.keptTasks ?? null,
    newTasks: r?.newTasks ?? null,
    droppedTasks: r?.droppedTasks ?? null,
    solveMs,
    makespanSlots: plan ? plan.objective.makespanSlots : null,
    rejectedJobs: plan ? plan.rejected.length : null,
  };
}
