import type { Model } from '../model/model';
import { posumScore, PosumScore } from '../evaluate/posum-score';
import { roundScore } from '../evaluate/posum-kpi';
import type { Sampler } from './batch-metrics';
import { TaskState } from './driver';
import { jobRevenue, JobRun, pct, RunReport, summarise } from './run-report';

/** What a run leaves for its report: the model, its per-task and per-job outcome, its counters and how it ran. */
export interface RunRecord {
  model: Model;
  /** When the clock stopped. */
  now: number;
  accepted: ArrayLike<number>;
  /** Per task: its TaskState, node, kills, whether its last attempt ran remotely, when that attempt was launched and ended. */
  state: ArrayLike<number>;
  node: Int32Array;
  kills: ArrayLike<number>;
  remote: ArrayLike<number>;
  startedAt: ArrayLike<number>;
  endTime: ArrayLike<number>;
  /** Per job: seconds to stage its chunks. */
  staging: ArrayLike<number>;
  /** Seconds node k has been paid for by `until` (Leases.uptime), and whether it is leasable. */
  leases: { uptime(k: number, until: number): number; leasable(k: number): boolean };
  sampler: Sampler;
  mode: 'plan' | 'policy';
  driver: string;
  qos: string;
  seed: number;
  reduceSlowstart: number;
  qosPeriodSeconds: number;
  placementBytes: number;
  remoteBytes: number;
  interferenceSlots: number;
  stalledTasks: number;
  events: number;
  elapsedMs: number;
}

/**
 * POSUM's P = (V_D, S_B, C) of the run (Table I, src/engine/evaluate/posum-score.ts): e_i is the time the job's
 * tasks ran (their last attempts); a job that did not end (rejected or unfinished) counts until the
 * simulation stopped; every node is up until the makespan.
 */
export function runScore(run: RunRecord, jobs: JobRun[], makespan: number): PosumScore {
  const { model } = run;
  const S = model.slotSeconds;
  const taskSeconds = new Float64Array(model.jobs.length);
  for (let i = 0; i < model.nTasks; i++) if (run.state[i] === TaskState.Done) taskSeconds[model.taskJob[i]] += run.endTime[i] - run.startedAt[i];
  const scored = model.jobs.map((job, j) => ({
    deadlineJob: model.doc.jobs[j].class === 'deadline',
    releaseSeconds: job.release * S,
    endSeconds: jobs[j].endSeconds,
    deadlineSeconds: jobs[j].deadlineSeconds,
    taskSeconds: taskSeconds[j],
  }));
  const end = Math.max(run.now, makespan);
  // A fixed node is paid until the makespan; a leased one for its leases (until the end if still leased).
  const nodes = model.doc.nodes.map((n, k) => ({ uptimeSeconds: run.leases.uptime(k, run.leases.leasable(k) ? end : makespan), costPerHour: n.costPerHour ?? 0 }));
  return roundScore(posumScore(scored, nodes, Math.max(run.now, makespan)));
}

/** When the jobs of a run ended and its makespan, as its report gives them (RunReport's jobs[j].endSeconds, makespanSeconds). */
export interface RunEnds {
  /** Per job: its last task's end once every task is done; null if rejected or unfinished. */
  endSeconds: (number | null)[];
  /** The last end of a task of an accepted job. */
  makespanSeconds: number;
}

/**
 * Job j's last task end (0: none ended) and whether every task is done, for an accepted job: what assembleReport
 * and runEnds read of it.
 */
function lastEnd(run: Pick<RunRecord, 'model' | 'state' | 'endTime'>, j: number): { end: number; done: boolean } {
  const job = run.model.jobs[j];
  let end = 0;
  let done = true;
  for (let i = job.firstTask; i < job.firstTask + job.taskCount; i++)
    if (run.state[i] !== TaskState.Done) done = false;
    else end = Math.max(end, run.endTime[i]);
  return { end, done };
}

/**
 * The jobs' ends and the makespan alone, as assembleReport computes them: what a score of the run reads (POSUM's
 * look-ahead scores thousands of runs a decision day and reads nothing else of their reports).
 */
export function runEnds(run: Pick<RunRecord, 'model' | 'accepted' | 'state' | 'endTime'>): RunEnds {
  const endSeconds: (number | null)[] = [];
  let makespan = 0;
  for (let j = 0; j < run.model.jobs.length; j++) {
    if (run.accepted[j] !== 1) {
      endSeconds.push(null);
      continue;
    }
    const { end, done } = lastEnd(run, j);
    makespan = Math.max(makespan, end);
    endSeconds.push(done ? end : null);
  }
  return { endSeconds, makespanSeconds: makespan };
}

/** The realised metrics of a run (run-report.ts): per job, then over the run. */
export function assembleReport(run: RunRecord): RunReport {
  const { model } = run;
  const S = model.slotSeconds;
  const jobs: JobRun[] = [];
  const exec: number[] = [];
  let makespan = 0;
  let tasks = 0;
  let relaunches = 0;
  let remoteTasks = 0;
  let misses = 0;
  let revenue = 0;
  let unfinished = 0;
  model.jobs.forEach((job, j) => {
    const accepted = run.accepted[j] === 1;
    const { end, done } = accepted ? lastEnd(run, j) : { end: 0, done: true };
    let kills = 0;
    let remote = 0;
    if (accepted)
      for (let i = job.firstTask; i < job.firstTask + job.taskCount; i++) {
        tasks++;
        kills += run.kills[i];
        if (run.state[i] === TaskState.Done && run.remote[i]) remote++;
      }
    relaunches += kills;
    remoteTasks += remote;
    makespan = Math.max(makespan, end);
    const endSeconds = accepted && done ? end : null;
    if (accepted && !done) unfinished++;
    const deadlineSeconds = job.deadline >= 0 ? job.deadline * S : null;
    const outcome = jobRevenue(accepted, endSeconds, deadlineSeconds, job.revenueOnTime, job.revenueLate);
    if (accepted && deadlineSeconds !== null && outcome.onTime === false) misses++;
    revenue += outcome.revenue;
    const executionSeconds = endSeconds === null ? null : run.staging[j] + endSeconds - job.release * S;
    if (executionSeconds !== null) exec.push(executionSeconds);
    const computeSeconds = endSeconds === null ? null : endSeconds - job.release * S;
    jobs.push({ id: job.id, accepted, stagingSeconds: run.staging[j], endSeconds, executionSeconds, computeSeconds, deadlineSeconds, onTime: outcome.onTime, revenue: outcome.revenue, kills, remoteTasks: remote });
  });
  const batch = run.sampler.finish(run.node, (i) => run.state[i] === TaskState.Done, (j) => jobs[j].computeSeconds);
  const score = runScore(run, jobs, makespan);
  let acceptedJobs = 0;
  for (let j = 0; j < model.jobs.length; j++) acceptedJobs += run.accepted[j];
  return {
    ...batch,
    mode: run.mode,
    driver: run.driver,
    qos: run.qos,
    seed: run.seed,
    reduceSlowstart: run.reduceSlowstart,
    qosPeriodSeconds: run.qosPeriodSeconds,
    makespanSeconds: makespan,
    jobExecutionSeconds: summarise(exec),
    score,
    relaunchedTaskPct: pct(relaunches, tasks),
    remoteTaskPct: pct(remoteTasks, tasks),
    bytesMoved: run.placementBytes + run.remoteBytes,
    placementBytes: run.placementBytes,
    remoteBytes: run.remoteBytes,
    deadlineMisses: misses,
    revenue,
    interferenceSlots: run.interferenceSlots,
    tasks,
    relaunches,
    stalledTasks: run.stalledTasks,
    remoteTasks,
    rejectedJobs: model.jobs.length - acceptedJobs,
    unfinishedJobs: unfinished,
    events: run.events,
    elapsedMs: run.elapsedMs,
    jobs,
  };
}
