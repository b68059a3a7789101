/**
 * Admission limits: how large an instance the service accepts, checked on the raw document BEFORE anything
 * is built from it. A 382-byte request with `horizon.slots: 1e8` or `tasks: 1e8` must be refused in
 * microseconds, not after the model has grown the process by gigabytes. The CLI does not apply them (an
 * offline user owns the machine); the service does, with limits from its configuration.
 */
import { Issue } from './types';

export interface AdmissionLimits {
  maxSlots: number;
  maxTasksPerStage: number;
  maxTotalTasks: number;
  maxNodes: number;
  maxMetrics: number;
  maxJobs: number;
  /** Estimated memory of the compiled model and its search, in MB (estimateInstanceMb). */
  maxInstanceMb: number;
}

export const DEFAULT_ADMISSION_LIMITS: AdmissionLimits = {
  maxSlots: 100_000,
  maxTasksPerStage: 100_000,
  maxTotalTasks: 200_000,
  maxNodes: 5_000,
  maxMetrics: 16,
  maxJobs: 20_000,
  maxInstanceMb: 2_048,
};

const count = (v: unknown): number => (Array.isArray(v) ? v.length : 0);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/**
 * A rough upper estimate of what the engine allocates for an instance: the per-slot profiles of every node
 * and metric (capacity, usage, free room and the search's copies, 8 bytes each), a stage-by-node duration
 * table, and per task its schedule arrays and a share of the search's working memory. Measured on
 * 2026-11-25 (loadInstance + an rffd solve, heap + array buffers; 2 metrics, 100-task stages): 14 MB for
 * 1,000 slots x 100 nodes x 10,000 tasks (estimate 14), 46 MB at 10,000 x 100 x 10,000 (101), 376 MB at
 * 20,000 x 500 x 20,000 (987), 184 MB at 2,000 x 2,000 x 50,000 (613): an upper bound with room for the
 * searches that keep copies.
 */
export function estimateInstanceMb(d: { slots: number; nodes: number; metrics: number; stages: number; tasks: number }): number {
  const profileBytes = d.slots * d.nodes * Math.max(1, d.metrics) * 8 * 6;
  const stageBytes = d.stages * d.nodes * 8 * 2;
  const taskBytes = d.tasks * (d.nodes * 2 + 256);
  return (profileBytes + stageBytes + taskBytes) / 1e6;
}

/** Every limit the document breaks, each naming its path and the limit (the configuration variable that sets it). */
export function admissionIssues(doc: unknown, limits: AdmissionLimits = DEFAULT_ADMISSION_LIMITS): Issue[] {
  const issues: Issue[] = [];
  if (typeof doc !== 'object' || doc === null) return issues;
  const d = doc as Record<string, any>;
  const over = (path: string, value: number, limit: number, what: string, env: string) => {
    if (value > limit) issues.push({ path, message: `${what} ${value} is over the limit of ${limit} (${env})` });
  };
  const slots = num(d.horizon?.slots);
  over('horizon.slots', slots, limits.maxSlots, 'slots', 'FALLOW_MAX_SLOTS');
  const nodes = count(d.nodes);
  over('nodes', nodes, limits.maxNodes, 'nodes', 'FALLOW_MAX_NODES');
  const metrics = count(d.metrics);
  over('metrics', metrics, limits.maxMetrics, 'metrics', 'FALLOW_MAX_METRICS');
  const jobs = Array.isArray(d.jobs) ? d.jobs : [];
  over('jobs', jobs.length, limits.maxJobs, 'jobs', 'FALLOW_MAX_JOBS');
  const { tasks, stages } = jobTaskIssues(jobs, limits, issues);
  if (issues.length) return issues;
  const mb = estimateInstanceMb({ slots, nodes, metrics, stages, tasks });
  if (mb > limits.maxInstanceMb)
    issues.push({
      path: '$',
      message: `the instance would need about ${Math.round(mb)} MB (${slots} slots x ${nodes} nodes x ${metrics} metrics, ${tasks} tasks), over the limit of ${limits.maxInstanceMb} MB (FALLOW_MAX_INSTANCE_MB)`,
    });
  return issues;
}

/** The limits a batch's jobs alone can break (tasks per stage, tasks in all, jobs): also checked when a batch is posted. */
export function jobsAdmissionIssues(jobs: unknown, limits: AdmissionLimits = DEFAULT_ADMISSION_LIMITS, prefix = 'jobs'): Issue[] {
  const issues: Issue[] = [];
  const list = Array.isArray(jobs) ? jobs : [];
  if (list.length > limits.maxJobs) issues.push({ path: prefix, message: `jobs ${list.length} is over the limit of ${limits.maxJobs} (FALLOW_MAX_JOBS)` });
  jobTaskIssues(list, limits, issues, prefix);
  return issues;
}

/**
 * What the service asks of a job beyond the engine's bounds (input-bounds.ts): release and deadline within
 * its slot limit, so that startsAt + slot x slotSeconds stays a date, and revenues in whole minor units of
 * the currency (the accounting sums them exactly and shows them as integers).
 */
function jobValueIssues(j: unknown, limits: AdmissionLimits, issues: Issue[], p: string): void {
  if (!j || typeof j !== 'object') return;
  const job = j as Record<string, unknown>;
  for (const k of ['releaseSlot', 'deadlineSlot']) {
    const v = job[k];
    if (typeof v === 'number' && v > limits.maxSlots) issues.push({ path: `${p}.${k}`, message: `${k} ${v} is over the limit of ${limits.maxSlots} (FALLOW_MAX_SLOTS)` });
  }
  const revenue = job.revenue;
  if (revenue && typeof revenue === 'object')
    for (const k of ['onTime', 'late']) {
      const v = (revenue as Record<string, unknown>)[k];
      if (typeof v === 'number' && Number.isFinite(v) && !Number.isInteger(v)) issues.push({ path: `${p}.revenue.${k}`, message: `must be whole minor units of the currency (cents for EUR), got ${v}` });
    }
}

function jobTaskIssues(jobs: unknown[], limits: AdmissionLimits, issues: Issue[], prefix = 'jobs'): { tasks: number; stages: number } {
  let tasks = 0;
  let stages = 0;
  jobs.forEach((j, ji) => {
    jobValueIssues(j, limits, issues, `${prefix}[${ji}]`);
    const list = j && typeof j === 'object' && Array.isArray((j as any).stages) ? ((j as any).stages as unknown[]) : [];
    list.forEach((s, si) => {
      stages++;
      const t = s && typeof s === 'object' ? (s as any).tasks : undefined;
      // A non-number is validation's to report; infinities and 1e300 are over any limit.
      if (typeof t !== 'number' || Number.isNaN(t)) return;
      if (t > limits.maxTasksPerStage) issues.push({ path: `${prefix}[${ji}].stages[${si}].tasks`, message: `tasks ${t} is over the limit of ${limits.maxTasksPerStage} per stage (FALLOW_MAX_STAGE_TASKS)` });
      tasks += t;
    });
  });
  if (tasks > limits.maxTotalTasks) issues.push({ path: prefix, message: `${tasks} tasks in all is over the limit of ${limits.maxTotalTasks} (FALLOW_MAX_TASKS)` });
  return { tasks, stages };
}

/**
 * Simulation parameters whose cost explodes past a bound (measured in docs/RELIABILITY.md, "Simulation
 * parameter limits"): a POSUM decision simulates every member again, so its period sets how many there
 * are; the QoS controller checks every node each period of simulated time; a rebuilt look-ahead is a new
 * instance per member per decision, sized by the look-ahead. Checked on the request, before anything is
 * stored or queued; the service sets them from its configuration, the CLI does not apply them.
 */
export interface SimulationLimits {
  /** Shortest POSUM period (`periodSeconds`): decisions = window / period, each simulating 16 members. */
  minPolicyPeriodSeconds: number;
  /** Shortest QoS controller period (`qosPeriodSeconds`). */
  minQosPeriodSeconds: number;
  /** Shortest look-ahead with `lookAheadMode: rebuild` (a rebuilt instance per member per decision). */
  minRebuildLookAheadSeconds: number;
  /** Longest look-ahead (`lookAheadSeconds`): a rebuilt look-ahead allocates its slots. */
  maxLookAheadSeconds: number;
}

export const DEFAULT_SIMULATION_LIMITS: SimulationLimits = {
  minPolicyPeriodSeconds: 10,
  minQosPeriodSeconds: 0.01,
  minRebuildLookAheadSeconds: 1,
  maxLookAheadSeconds: 7 * 86_400,
};

/** The request's fields a limit applies to, as they came (anything not a finite number is validation's to report). */
export interface SimulationParameters {
  periodSeconds?: unknown;
  qosPeriodSeconds?: unknown;
  lookAheadSeconds?: unknown;
  lookAheadMode?: unknown;
  lsMember?: unknown;
}

/** Every limit the request's parameters break, each naming its field, the limit and the variable that sets it. */
export function simulationParameterIssues(r: SimulationParameters, limits: SimulationLimits = DEFAULT_SIMULATION_LIMITS): Issue[] {
  const issues: Issue[] = [];
  const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
  const atLeast = (path: keyof SimulationParameters, min: number, env: string, why: string) => {
    const v = r[path];
    if (finite(v) && v > 0 && v < min) issues.push({ path, message: `${v} s is under the limit of ${min} s (${env}): ${why}` });
  };
  atLeast('periodSeconds', limits.minPolicyPeriodSeconds, 'FALLOW_MIN_POLICY_PERIOD_SECONDS', 'every decision simulates each of the portfolio\'s members again');
  atLeast('qosPeriodSeconds', limits.minQosPeriodSeconds, 'FALLOW_MIN_QOS_PERIOD_SECONDS', 'the QoS controller checks every node once a period of simulated time');
  // lsMember without a mode means rebuild (lookAheadSettings).
  const rebuild = r.lookAheadMode === 'rebuild' || (r.lookAheadMode === undefined && r.lsMember === true);
  if (rebuild)
    atLeast('lookAheadSeconds', limits.minRebuildLookAheadSeconds, 'FALLOW_MIN_REBUILD_LOOK_AHEAD_SECONDS', 'with lookAheadMode rebuild every decision builds a new instance for each member');
  const look = r.lookAheadSeconds;
  if (finite(look) && look > limits.maxLookAheadSeconds)
    issues.push({ path: 'lookAheadSeconds', message: `${look} s is over the limit of ${limits.maxLookAheadSeconds} s (FALLOW_MAX_LOOK_AHEAD_SECONDS)` });
  return issues;
}
