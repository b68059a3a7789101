import { compile, Model, taskSeconds } from '../../model/model';
import type { InstanceDoc, JobSpec } from '../../model/types';
import type { RunEnds } from '../../simulate/report';
import { TaskState } from '../../simulate/driver';
import { ActualUsage, UsageDoc } from '../../simulate/usage';
import type { SimulatorView } from '../../simulate/host';
import { earliestEnd } from './earliest-end';
import { posumScore, PosumScore, ScoredJob } from '../../evaluate/posum-score';

/**
 * The replayed present (PortfolioParams.lookAheadMode 'replay'): instead of rebuilding the state at `now` as a
 * new instance (look-ahead.ts lookAhead: running tasks become load rounded to whole slots, a reduce whose maps all
 * run may start at once), each member's look-ahead runs the workload again with what the scheduler
 * knows at `now`: the jobs submitted so far (and, with `echoArrivals`, the arrivals of the last `echoSeconds` once
 * more, one such window later), the regular load it has observed up to the current slot and the forecast after it, the
 * same simulator options, and POSUM's own past choices (the caller's script). The simulator is deterministic, so
 * the replay reaches the live state at `now` exactly; from there the member runs until `now + lookAheadSeconds`.
 * Past contributions to the score are the same for every member, so comparing the totals compares the futures;
 * V_D is then the run's mean over every deadline job so far, as the final score counts it.
 *
 * Two ways to get there, with the same result (posum-policy.ts rethinkByReplay):
 * - from time 0 (replayInstance: a new instance of the submitted jobs), once a decision, forked per member; the
 *   cost grows with `now`, by one simulation of the past. Used with echoed arrivals, and in the run's first slot;
 * - by default, from a copy of the live run taken at the start of the current slot (liveInput: the run's own
 *   model, the jobs not submitted yet withdrawn from the copy, Simulator.withdrawJobs), run on to `now`: at most a
 *   slot of past, whatever the length of the run. Not from the live run at `now` itself: within the current slot
 *   the live run has seen the actual load of the next slot (the QoS controller's interpolation, qos-clock.ts),
 *   which the replay, on the forecast after the current slot, has not.
 */
export interface ReplayInput {
  model: Model;
  /** The jobs of `model`, for the score: release, deadline and class of each (e_i and the end come from the run). */
  jobs: Omit<ScoredJob, 'endSeconds' | 'taskSeconds'>[];
  /** The jobs of `model` the look-ahead knows, in order, `jobs` giving theirs (absent: all of them). */
  known?: number[];
}

/** The live run's model as the replay's (liveInput): the jobs known (`known`), those withdrawn from a fork (`hidden`), the load to run on. */
export interface LiveInput extends ReplayInput {
  known: number[];
  hidden: Set<number>;
  usage: ActualUsage;
}

/** Jobs submitted by `now`. */
export function submittedBy(model: Model, now: number): boolean[] {
  return model.jobs.map((job) => job.release * model.slotSeconds <= now + 1e-9);
}

/** Some task of a submitted job waits to be launched (else a replay has nothing to decide). */
export function waiting(model: Model, live: SimulatorView, submitted: boolean[]): boolean {
  return model.jobs.some((job, j) => {
    if (!submitted[j]) return false;
    for (let i = job.firstTask; i < job.firstTask + job.taskCount; i++)
      if (live.state[i] !== TaskState.Done && live.state[i] !== TaskState.Skipped && live.node[i] < 0) return true;
    return false;
  });
}

/** The regular load observed up to slot `s0` (its value is the load at the slot's start; by default the current slot), the forecast after. */
function observedThenForecast(model: Model, live: SimulatorView, s0 = Math.floor(live.now / model.slotSeconds + 1e-9)): UsageDoc {
  const doc = model.doc;
  const usage: UsageDoc = {};
  doc.nodes.forEach((n, k) => {
    usage[n.id] = {};
    model.metrics.forEach((m, mi) => {
      const forecast = doc.usage?.[n.id]?.[m];
      // A plain loop: this runs before every slot where POSUM may decide (K x M x T values).
      const series = new Array<number>(model.T);
      for (let t = 0; t < model.T; t++) series[t] = t <= s0 ? live.usage.at(k, mi, t) : (forecast?.[t] ?? 0);
      usage[n.id][m] = series;
    });
  });
  return usage;
}

/** Job j of `model` released and due `shift` seconds later (an echo) for the score, and its release and deadline slots. */
function identity(model: Model, j: number, spec: JobSpec, shift: number): { scored: ReplayInput['jobs'][number]; releaseSlot: number; deadlineSlot: number | null } {
  const S = model.slotSeconds;
  const job = model.jobs[j];
  const releaseSlot = job.release + shift / S;
  const deadlineSlot = job.deadline >= 0 ? job.deadline + shift / S : null;
  return { releaseSlot, deadlineSlot, scored: { deadlineJob: spec.class === 'deadline' && deadlineSlot !== null, releaseSeconds: releaseSlot * S, deadlineSeconds: deadlineSlot === null ? null : deadlineSlot * S } };
}

/** The instance a replay at `now` runs: submitted jobs, echoes, observed load then forecast. Null when nothing waits. */
export function replayInstance(model: Model, live: SimulatorView, echoSeconds: number, echoArrivals: boolean): ReplayInput | null {
  const S = model.slotSeconds;
  const now = live.now;
  const doc = model.doc;
  const submitted = submittedBy(model, now);
  if (!waiting(model, live, submitted)) return null;
  const jobs: JobSpec[] = [];
  const scored: ReplayInput['jobs'] = [];
  const add = (j: number, spec: JobSpec, shift: number) => {
    const id = identity(model, j, spec, shift);
    jobs.push({ ...spec, releaseSlot: id.releaseSlot, ...(id.deadlineSlot !== null ? { deadlineSlot: id.deadlineSlot } : {}) });
    scored.push(id.scored);
  };
  model.jobs.forEach((_, j) => submitted[j] && add(j, doc.jobs[j], 0));
  // Echoes: whole copies of the last echoSeconds' arrivals, released (and due) one window later; a whole number of slots.
  const shift = Math.ceil(echoSeconds / S) * S;
  if (echoArrivals)
    model.jobs.forEach((job, j) => {
      const release = job.release * S;
      if (submitted[j] && release > now - echoSeconds) add(j, { ...doc.jobs[j], id: `${doc.jobs[j].id}-echo` }, shift);
    });
  const replay: InstanceDoc = { ...doc, name: `${doc.name}@${Math.round(now)}`, usage: observedThenForecast(model, live), jobs };
  return { model: compile(replay), jobs: scored };
}

/**
 * What a copy of the live run needs to become the replay of any decision in slot `slot` (no echoes; releases fall
 * on slot starts, so every decision of the slot knows the same jobs): the run's model, the jobs submitted by the
 * slot's start (`known`, with their identity for the score), the others (`hidden`, to withdraw), and the regular load
 * `live` has observed up to that slot, the forecast after.
 */
export function liveInput(model: Model, live: SimulatorView, slot: number): LiveInput {
  const submitted = submittedBy(model, slot * model.slotSeconds);
  const known: number[] = [];
  const hidden = new Set<number>();
  submitted.forEach((yes, j) => (yes ? known.push(j) : hidden.add(j)));
  const jobs = known.map((j) => identity(model, j, model.doc.jobs[j], 0).scored);
  return { model, jobs, known, hidden, usage: live.usage.observedThen(forecastOf(model), slot) };
}

/** The model's forecast (its instance's usage) as a load to run on, made once per model: liveInput takes it before every slot where POSUM may decide. */
const FORECAST = new WeakMap<Model, ActualUsage>();
function forecastOf(model: Model): ActualUsage {
  let u = FORECAST.get(model);
  if (u === undefined) FORECAST.set(model, (u = new ActualUsage(model, model.doc.usage)));
  return u;
}

/**
 * Scores a replay stopped at `end` as the simulator scores a whole run (simulator.ts score), over the jobs it knows: e_i is the time the
 * job's ended tasks ran plus the nominal time of the others; a fixed node is paid until the makespan, a leased
 * one for its leases until the run stopped, and at least to its minimum lease; a job the window leaves
 * unfinished ends no earlier than its tasks allow (earliest-end.ts), and at the window's end at least.
 */
export function replayScore(input: ReplayInput, sim: SimulatorView, r: RunEnds, end: number): PosumScore {
  const { model } = input;
  const ran = new Float64Array(model.jobs.length);
  for (let i = 0; i < model.nTasks; i++) {
    const g = model.taskStage[i];
    ran[model.taskJob[i]] += sim.state[i] === TaskState.Done ? sim.endTime[i] - sim.startedAt[i] : taskSeconds(model.stages[g], 1);
  }
  const known = input.known ?? input.jobs.map((_, j) => j);
  const jobs: ScoredJob[] = known.map((j, n) => {
    const { deadlineJob, releaseSeconds, deadlineSeconds } = input.jobs[n];
    return { deadlineJob, releaseSeconds, deadlineSeconds, taskSeconds: ran[j], endSeconds: r.endSeconds[j] ?? Math.max(end, earliestEnd(model, sim, j)) };
  });
  const stopped = Math.max(sim.now, r.makespanSeconds);
  const minimumEnd = (k: number) => (sim.leasedAt[k] >= 0 ? sim.leasedAt[k] + model.doc.nodes[k].lease!.minLeaseSeconds : 0);
  const nodes = model.doc.nodes.map((n, k) => ({ uptimeSeconds: sim.uptime(k, n.lease ? Math.max(stopped, minimumEnd(k)) : r.makespanSeconds), costPerHour: n.costPerHour ?? 0 }));
  return posumScore(jobs, nodes, Math.max(stopped, end));
}
