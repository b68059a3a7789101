import { MEMBERS } from '../../engine/policies/posum/params';
import type { Deadline } from '../../modules/work/work-handler';
import { scaledDeadline } from '../../modules/work/deadline';
import type { SimulationInput } from './simulation.thread';

/** What any simulation gets: the thread's start and loading the instance. */
const BASE_MS = 30_000;
/**
 * Allowance per task simulated once, a posum look-ahead's replay counted as a run of every task (measured in
 * docs/RELIABILITY.md on a loaded 2-core machine: the small example's posum run took 10.7 s at a 120-s period
 * and 53 s at 10 s, against deadlines of 57 s and 348 s from this): about 5 times what it took, so a deadline
 * ends work that runs away, not work that is slow. The 60-job example's default posum run gets the cap.
 */
const PER_TASK_RUN_MS = 0.1;

/**
 * A simulation's deadline: 30 s plus an allowance per task run, a posum run counting each member's
 * simulation at each decision (decisions: one a period over the window, and one at each job's arrival when
 * it decides on arrivals), capped by FALLOW_SIMULATION_MAX_SECONDS.
 */
export function simulationDeadline(input: SimulationInput, maxSeconds: number): Deadline {
  const { instance } = input;
  const tasks = instance.jobs.reduce((n, j) => n + j.stages.reduce((m, s) => m + s.tasks, 0), 0);
  return scaledDeadline({ baseMs: BASE_MS, perUnitMs: PER_TASK_RUN_MS, units: tasks * runs(input), unitWords: 'task runs', maxSeconds, maxEnv: 'FALLOW_SIMULATION_MAX_SECONDS' });
}

/** How many times the simulation runs the workload: once, or for posum once per member per decision (and once live). */
function runs(input: SimulationInput): number {
  const p = input.posum;
  if (input.policy !== 'posum' || !p) return 1;
  const windowSeconds = input.instance.horizon.slots * input.instance.horizon.slotSeconds;
  const decisions = Math.ceil(windowSeconds / p.periodSeconds) + (p.decideOnArrival ? input.instance.jobs.length : 0);
  return 1 + decisions * (MEMBERS.length + (p.lsMember ? 1 : 0));
}
