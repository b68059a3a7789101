import { compile, Model, taskSeconds } from '../../model/model';
import type { InstanceDoc, JobSpec } from '../../model/types';
import type { RunReport as SimReport } from '../../simulate/run-report';
import { TaskState } from '../../simulate/driver';
import type { SimulatorView } from '../../simulate/host';
import { earliestEnd } from './earliest-end';
import { posumScore, PosumScore, ScoredJob } from '../../evaluate/posum-score';

/**
 * The replayed present (PortfolioParams.lookAheadMode 'replay'): instead of rebuilding the state at `now` as a
 * new instance (look-ahead.ts lookAhead: running tasks become load rounded to whole slots, a reduce whose maps all
 * run may start at once), each member's look-ahead runs the workload again from time 0 with what the scheduler
 * knows at `now`: the jobs submitted so far (and, with `echoArrivals`, the arrivals of the last `echoSeconds` once
 * more, one such window later), the regular load it has observed up to the current slot and the forecast after it, the
 * same simulator options, and POSUM's own past choices (the caller's script). The simulator is deterministic, so
 * the replay reaches the live state at `now` exactly; from there the member runs until `now + lookAheadSeconds`.
 * Past contributions to the score are the same for every member, so comparing the totals compares the futures;
 * V_D is then the run's mean over every deadline job so far, as the final score counts it.
 *
 * The past is simulated once a decision and forked per member (posum-policy.ts rethinkByReplay, Simulator.fork), so
 * the cost still grows with `now`, by one simulation of the past, where the rebuilt present costs the same at
 * every decision.
 */
export interface ReplayInput {
  model: Model;
  /** The jobs of `model`, for the score: release, deadline and class of each (e_i and the end come from the run). */
  jobs: Omit<ScoredJob, 'endSeconds' | 'taskSeconds'>[];
}

/** The instance a replay at `now` runs: submitted jobs, echoes, observed load then forecast. Null when nothing waits. */
export function replayInstance(model: Model, live: SimulatorView, echoSeconds: number, echoArrivals: boolean): ReplayInput | null {
  const S = model.slotSeconds;
  const now = live.now;
  const doc = model.doc;
  const submitted = model.jobs.map((job) => job.release * S <= now + 1e-9);
  let waiting = false;
  model.jobs.forEach((job, j) => {
    if (!submitted[j]) return;
    for (let i = job.firstTask; i < job.firstTask + job.taskCount && !waiting; i++)
      if (live.state[i] !== TaskState.Done && live.state[i] !== TaskState.Skipped && live.node[i] < 0) waiting = true;
  });
  if (!waiting) return null;
  const jobs: JobSpec[] = [];
  const identity: ReplayInput['jobs'] = [];
  const add = (j: number, spec: JobSpec, shift: number) => {
    const job = model.jobs[j];
    const releaseSlot = job.release + shift / S;
    const deadlineSlot = job.deadline >= 0 ? job.deadline + shift / S : null;
    jobs.push({ ...spec, releaseSlot, ...(deadlineSlot !== null ? { deadlineSlot } : {}) });
    identity.push({ deadlineJob: spec.class === 'deadline' && deadlineSlot !== null, releaseSeconds: releaseSlot * S, deadlineSeconds: deadlineSlot === null ? null : deadlineSlot * S });
  };
  model.jobs.forEach((_, j) => submitted[j] && add(j, doc.jobs[j], 0));
  // Echoes: whole copies of the last echoSeconds' arrivals, released (and due) one window later; a whole number of slots.
  const shift = Math.ceil(echoSeconds / S) * S;
  if (echoArrivals)
    model.jobs.forEach((job, j) => {
      const release = job.release * S;
      if (submitted[j] && release > now - echoSeconds) add(j, { ...doc.jobs[j], id: `${doc.jobs[j].id}-echo` }, shift);
    });
  // The regular load observed up to the current slot (its value is the load at the slot's start, now), the forecast after.
  const s0 = Math.floor(now / S + 1e-9);
  const usage: Record<string, Record<string, number[]>> = {};
  doc.nodes.forEach((n, k) => {
    usage[n.id] = {};
    model.metrics.forEach((m, mi) => {
      const forecast = doc.usage?.[n.id]?.[m];
      usage[n.id][m] = Array.from({ length: model.T }, (_, t) => (t <= s0 ? live.usage.at(k, mi, t) : (forecast?.[t] ?? 0)));
    });
  });
  const replay: InstanceDoc = { ...doc, name: `${doc.name}@${Math.round(now)}`, usage, jobs };
  return { model: compile(replay), jobs: identity };
}

/**
 * Scores a replay stopped at `end` as the simulator scores a whole run (simulator.ts score): e_i is the time the
 * job's ended tasks ran plus the nominal time of the others; a fixed node is paid until the makespan, a leased
 * one for its leases until the run stopped, and at least to its minimum lease; a job the window leaves
 * unfinished ends no earlier than its tasks allow (earliest-end.ts), and at the window's end at least.
 */
export function replayScore(input: ReplayInput, sim: SimulatorView, r: SimReport, end: number): PosumScore {
  const { model } = input;
  const ran = new Float64Array(model.jobs.length);
  for (let i = 0; i < model.nTasks; i++) {
    const g = model.taskStage[i];
    ran[model.taskJob[i]] += sim.state[i] === TaskState.Done ? sim.endTime[i] - sim.startedAt[i] : taskSeconds(model.stages[g], 1);
  }
  const jobs: ScoredJob[] = r.jobs.map((run, j) => ({ ...input.jobs[j], taskSeconds: ran[j], endSeconds: run.endSeconds ?? Math.max(end, earliestEnd(model, sim, j)) }));
  const stopped = Math.max(sim.now, r.makespanSeconds);
  const minimumEnd = (k: number) => (sim.leasedAt[k] >= 0 ? sim.leasedAt[k] + model.doc.nodes[k].lease!.minLeaseSeconds : 0);
  const nodes = model.doc.nodes.map((n, k) => ({ uptimeSeconds: sim.uptime(k, n.lease ? Math.max(stopped, minimumEnd(k)) : r.makespanSeconds), costPerHour: n.costPerHour ?? 0 }));
  return posumScore(jobs, nodes, Math.max(stopped, end));
}
