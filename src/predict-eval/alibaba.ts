import { basic, standard, StageQuery, statsOf, TaskRun } from '../engine/predict';
import { Accuracy, AccuracyTable } from './accuracy';

/**
 * POSUM's first evaluation direction on a trace nobody here wrote: the Alibaba 2017 batch tasks
 * (batch_task.csv: create and end times, job, instance count). A task's duration is end - create; it is
 * predicted from other tasks of its job (basic: their mean duration; standard: their seconds per instance,
 * the trace's only size of a task's work, times its instance count), against the mean of every task of
 * the trace that had ended by then (the global-mean baseline). Two readings of "the job's other tasks":
 * - `ended-before`: those that ended before it. A job's tasks are created together in this trace (its DAG
 *   at submission), so "ended before it was created" is nearly always empty; ended before it is what an
 *   online predictor could have seen by the time this task was still running. It favours shorter tasks.
 * - `rest-of-job`: all the others, what a recurring job's history would give (v2017 has no users and no
 *   recurring job names, so there is no history across jobs).
 * The trace has no locality nor reduce phases: the detailed predictor has nothing more to go on and is not
 * scored here.
 */
export interface AlibabaTask {
  job: string;
  create: number;
  end: number;
  instances: number;
}

export const HISTORY_BUCKETS = ['0', '1', '2-4', '5-9', '10+'] as const;

export function bucketOf(n: number): string {
  return n === 0 ? '0' : n === 1 ? '1' : n < 5 ? '2-4' : n < 10 ? '5-9' : '10+';
}

/** Terminated tasks with a positive duration (the header's names may start with spaces). */
export function parseAlibaba(csv: string): AlibabaTask[] {
  const lines = csv.split(/\r?\n/).filter((l) => l.length > 0);
  const header = lines[0].split(',').map((h) => h.trim());
  const col = (name: string) => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`batch_task.csv has no column "${name}" (columns: ${header.join(', ')})`);
    return i;
  };
  const [c, e, j, n, s] = ['task_create_time', 'task_end_time', 'job_id', 'number_of_instances', 'status'].map(col);
  const out: AlibabaTask[] = [];
  for (let l = 1; l < lines.length; l++) {
    const f = lines[l].split(',');
    if (f[s]?.trim() !== 'Terminated') continue;
    const task = { job: f[j].trim(), create: Number(f[c]), end: Number(f[e]), instances: Number(f[n]) };
    if (task.end > task.create && Number.isFinite(task.create) && task.instances > 0) out.push(task);
  }
  return out;
}

export interface AlibabaResult {
  tasks: number;
  jobs: number;
  /** predictor -> history bucket ('all', '0', '1', ...) -> accuracy. */
  accuracy: Record<string, Record<string, Accuracy>>;
}

export type AlibabaReading = 'ended-before' | 'rest-of-job';

export function evaluateAlibaba(tasks: AlibabaTask[], reading: AlibabaReading = 'ended-before'): AlibabaResult {
  const table = new AccuracyTable();
  // Global mean of the tasks ended by time t: ends sorted with prefix sums of durations.
  const byEnd = [...tasks].sort((a, b) => a.end - b.end);
  const prefix = new Float64Array(byEnd.length + 1);
  byEnd.forEach((t, i) => (prefix[i + 1] = prefix[i] + (t.end - t.create)));
  const endedBy = (time: number) => {
    let lo = 0;
    let hi = byEnd.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (byEnd[mid].end <= time) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const jobs = new Map<string, AlibabaTask[]>();
  for (const t of tasks) jobs.set(t.job, [...(jobs.get(t.job) ?? []), t]);
  for (const list of jobs.values()) {
    for (const t of list) {
      const truth = t.end - t.create;
      const others = list.filter((o) => o !== t && (reading === 'rest-of-job' || o.end < t.end));
      const earlier: TaskRun[] = others.map((o) => ({ runtimeSeconds: o.end - o.create, inputBytes: o.instances }));
      const bucket = bucketOf(earlier.length);
      table.ask(bucket);
      const n = endedBy(reading === 'rest-of-job' ? t.create : t.end - 1e-9);
      table.add('global-mean', bucket, n > 0 ? prefix[n] / n : null, truth);
      const q: StageQuery = { kind: 'map', tasks: 1, inputBytesPerTask: t.instances, mapInputBytes: null, own: { current: statsOf(earlier), byClass: null, byCustomer: null }, maps: null };
      table.add('basic', bucket, basic(q)?.seconds ?? null, truth);
      table.add('standard', bucket, standard(q)?.seconds ?? null, truth);
    }
  }
  return { tasks: tasks.length, jobs: jobs.size, accuracy: table.result(['global-mean', 'basic', 'standard'], HISTORY_BUCKETS) };
}
