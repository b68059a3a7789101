import { InputLimits, parseIsoDateTime } from '../../engine/model/input-bounds';
import { Issue } from '../../engine/model/types';
import { isObject, show } from '../../engine/model/validate';
import { unknownFields } from '../common/document-validation';
import { EVENT_LOCALITIES, EVENT_TYPES, EventType } from './execution-event.entity';

export const MAX_EVENTS_PER_REQUEST = 10_000;
const EVENT_FIELDS = ['id', 'solveId', 'job', 'stage', 'task', 'node', 'type', 'at', 'reason', 'inputBytes', 'outputBytes', 'locality', 'shuffleEndAt', 'mergeEndAt'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The instants an event may be dated: from EVENT_MAX_AGE_DAYS ago to EVENT_MAX_AHEAD_SECONDS ahead of the server's clock. */
export interface EventWindow {
  from: Date;
  to: Date;
}

export function eventWindow(now: number, limits: Pick<InputLimits, 'eventMaxAgeDays' | 'eventMaxAheadSeconds'>): EventWindow {
  return { from: new Date(now - limits.eventMaxAgeDays * 86_400_000), to: new Date(now + limits.eventMaxAheadSeconds * 1000) };
}

/** What an event may name in a solve: its instance's jobs (stage -> task count) and nodes. */
export interface SolveShape {
  jobs: Map<string, Map<string, number>>;
  nodes: Set<string>;
}

export interface EventInput {
  id: string;
  solveId: string;
  job: string;
  stage: string;
  task: number;
  node: string;
  type: EventType;
  at: Date;
  reason: string | null;
  inputBytes: number | null;
  outputBytes: number | null;
  locality: (typeof EVENT_LOCALITIES)[number] | null;
  shuffleEndAt: Date | null;
  mergeEndAt: Date | null;
}

/** The distinct well-formed solve ids the events name, to load their shapes in one query. */
export function solveIdsOf(events: unknown[]): string[] {
  return [...new Set(events.filter(isObject).map((e) => (e as Record<string, unknown>).solveId).filter((s): s is string => typeof s === 'string' && UUID.test(s)))];
}

/**
 * Checks every event against the solves the caller may report on (`shapes`; a solve missing there is
 * unknown, whether it does not exist or belongs to someone else) and returns each problem with its path,
 * `events[i].field`. An event id repeated within the request must repeat the same content.
 */
export function eventIssues(events: unknown[], shapes: Map<string, SolveShape>, window: EventWindow): { issues: Issue[]; parsed: EventInput[] } {
  const issues: Issue[] = [];
  const parsed: EventInput[] = [];
  const firstById = new Map<string, { index: number; key: string }>();
  events.forEach((raw, i) => {
    const p = `events[${i}]`;
    if (!isObject(raw)) return void issues.push({ path: p, message: 'must be an object' });
    const e = raw as Record<string, unknown>;
    const before = issues.length;
    const bad = (field: string, message: string) => issues.push({ path: `${p}.${field}`, message });
    issues.push(...unknownFields(e, p, EVENT_FIELDS));
    if (typeof e.id !== 'string' || e.id.length < 1 || e.id.length > 200) bad('id', 'must be a string of 1 to 200 characters');
    let shape: SolveShape | undefined;
    if (typeof e.solveId !== 'string' || !UUID.test(e.solveId)) bad('solveId', 'must be a solve id (UUID)');
    else if (!(shape = shapes.get(e.solveId.toLowerCase()))) bad('solveId', `unknown solve ${e.solveId} (or not one you may report on)`);
    let stages: Map<string, number> | undefined;
    if (typeof e.job !== 'string') bad('job', 'must be a job id');
    else if (shape && !(stages = shape.jobs.get(e.job))) bad('job', `the solve's instance has no job "${e.job}"`);
    let tasks: number | undefined;
    if (typeof e.stage !== 'string') bad('stage', 'must be a stage id');
    else if (stages && (tasks = stages.get(e.stage)) === undefined) bad('stage', `job "${e.job}" has no stage "${e.stage}"`);
    if (!Number.isInteger(e.task) || (e.task as number) < 0) bad('task', 'must be a task index (an integer >= 0)');
    else if (tasks !== undefined && (e.task as number) >= tasks) bad('task', `stage "${e.stage}" has tasks 0..${tasks - 1}`);
    if (typeof e.node !== 'string') bad('node', 'must be a node id');
    else if (shape && !shape.nodes.has(e.node)) bad('node', `the solve's instance has no node "${e.node}"`);
    if (!EVENT_TYPES.includes(e.type as EventType)) bad('type', `must be one of ${EVENT_TYPES.join(', ')}`);
    const time = (f: string): Date | undefined => {
      const t = parseIsoDateTime(e[f]);
      if (!t) return bad(f, `must be an ISO 8601 date-time with a zone of a real calendar day, e.g. 2030-01-01T10:15:00Z, got ${show(e[f])}`), undefined;
      if (t < window.from || t > window.to)
        return bad(f, `must be between ${window.from.toISOString()} and ${window.to.toISOString()} (FALLOW_EVENT_MAX_AGE_DAYS back, FALLOW_EVENT_MAX_AHEAD_SECONDS ahead), got ${show(e[f])}`), undefined;
      return t;
    };
    const at = time('at');
    if (e.reason !== undefined && e.reason !== null && (typeof e.reason !== 'string' || e.reason.length > 2000)) bad('reason', 'must be a string of at most 2000 characters');
    for (const f of ['inputBytes', 'outputBytes'])
      if (e[f] !== undefined && e[f] !== null && !(Number.isSafeInteger(e[f]) && (e[f] as number) >= 0)) bad(f, `must be a whole number of bytes >= 0, got ${show(e[f])}`);
    if (e.locality !== undefined && e.locality !== null && !EVENT_LOCALITIES.includes(e.locality as never))
      bad('locality', `must be one of ${EVENT_LOCALITIES.join(', ')} (where a map read its block), got ${show(e.locality)}`);
    const phase = (f: 'shuffleEndAt' | 'mergeEndAt'): Date | null => {
      if (e[f] === undefined || e[f] === null) return null;
      const t = time(f);
      if (!t) return null;
      if (e.type !== 'finished') return bad(f, 'only a finished event (of a reduce) says when its phases ended'), null;
      return t;
    };
    const shuffleEndAt = phase('shuffleEndAt');
    const mergeEndAt = phase('mergeEndAt');
    if (mergeEndAt && !shuffleEndAt) bad('mergeEndAt', 'needs shuffleEndAt: the merge follows the shuffle');
    if (shuffleEndAt && mergeEndAt && mergeEndAt < shuffleEndAt) bad('mergeEndAt', `must not be before shuffleEndAt (${shuffleEndAt.toISOString()})`);
    if (at && (mergeEndAt ?? shuffleEndAt) && (mergeEndAt ?? shuffleEndAt)! > at) bad(mergeEndAt ? 'mergeEndAt' : 'shuffleEndAt', `must not be after the task finished (at ${at.toISOString()})`);
    if (issues.length > before) return;
    const num = (v: unknown) => (typeof v === 'number' ? v : null);
    const ev: EventInput = {
      id: e.id as string,
      solveId: (e.solveId as string).toLowerCase(),
      job: e.job as string,
      stage: e.stage as string,
      task: e.task as number,
      node: e.node as string,
      type: e.type as EventType,
      at: at!,
      reason: (e.reason as string | undefined) ?? null,
      inputBytes: num(e.inputBytes),
      outputBytes: num(e.outputBytes),
      locality: (e.locality as EventInput['locality'] | undefined) ?? null,
      shuffleEndAt,
      mergeEndAt,
    };
    const seen = firstById.get(ev.id);
    if (seen && seen.key !== contentKey(ev)) return void bad('id', `repeats events[${seen.index}].id with different content`);
    if (!seen) firstById.set(ev.id, { index: i, key: contentKey(ev) });
    parsed.push(ev);
  });
  return { issues, parsed };
}

/** Everything an event says, to tell a retried event (same key) from a conflicting one. */
export function contentKey(e: Omit<EventInput, 'id'>): string {
  const time = (d: Date | null) => (d ? d.getTime() : null);
  return JSON.stringify([e.solveId, e.job, e.stage, e.task, e.node, e.type, e.at.getTime(), e.reason ?? null, e.inputBytes, e.outputBytes, e.locality, time(e.shuffleEndAt), time(e.mergeEndAt)]);
}

/** The earliest start and the earliest end (finished or killed) of one task: an end before every start is impossible. */
export interface TaskSpan {
  firstStart?: Date;
  firstEnd?: Date;
}

export const taskKey = (e: Pick<EventInput, 'solveId' | 'job' | 'stage' | 'task'>): string => JSON.stringify([e.solveId, e.job, e.stage, e.task]);

/**
 * Events that would make a task end before it ever started: a finished or killed event before the task's
 * first start, or a start after the task's first end, counting this request's events and the stored ones
 * (`stored`, by taskKey). Relaunches (killed, then started again) keep the first start before the first end.
 */
export function orderIssues(events: unknown[], parsed: EventInput[], stored: Map<string, TaskSpan>): Issue[] {
  const index = new Map(events.map((e, i) => [(e as { id?: unknown })?.id, i]));
  const span = new Map<string, TaskSpan>();
  for (const e of parsed) {
    const k = taskKey(e);
    const s = span.get(k) ?? { ...stored.get(k) };
    if (e.type === 'started') s.firstStart = !s.firstStart || e.at < s.firstStart ? e.at : s.firstStart;
    else if (!s.firstEnd || e.at < s.firstEnd) s.firstEnd = e.at;
    span.set(k, s);
  }
  const issues: Issue[] = [];
  for (const e of parsed) {
    const s = span.get(taskKey(e))!;
    if (!s.firstStart || !s.firstEnd || s.firstEnd >= s.firstStart) continue;
    const path = `events[${index.get(e.id)}].at`;
    if (e.type !== 'started' && e.at < s.firstStart) issues.push({ path, message: `a ${e.type} event must not be before the task's first start (at ${s.firstStart.toISOString()})` });
    else if (e.type === 'started' && e.at.getTime() === s.firstStart.getTime()) {
      const storedEnd = stored.get(taskKey(e))?.firstEnd; // an end in this request before it is reported on that end
      if (storedEnd && storedEnd < e.at) issues.push({ path, message: `must not be after the task already ended (at ${storedEnd.toISOString()})` });
    }
  }
  return issues;
}

/**
 * Finished events whose shuffle ended before the task started: `startedAt(event)` gives the task's last
 * start at or before its end (in the same request or already recorded), undefined when none is known.
 */
export function phaseIssues(events: unknown[], parsed: EventInput[], startedAt: (e: EventInput) => Date | undefined): Issue[] {
  const index = new Map(events.map((e, i) => [(e as { id?: unknown })?.id, i]));
  const issues: Issue[] = [];
  for (const e of parsed) {
    if (!e.shuffleEndAt) continue;
    const start = startedAt(e);
    if (start && e.shuffleEndAt < start) issues.push({ path: `events[${index.get(e.id)}].shuffleEndAt`, message: `must not be before the task started (at ${start.toISOString()})` });
  }
  return issues;
}
