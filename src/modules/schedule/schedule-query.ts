import { parseIsoDateTime } from '../../engine/model/input-bounds';
import type { Issue } from '../../engine/model/types';
import { invalid } from '../common/problem';

/** The window a schedule is asked for: `from` (default now) and `to` (exclusive; undefined: the grid's default end). */
export interface ScheduleQuery {
  fromMs: number;
  toMs: number | undefined;
}

/** `?from=&to=` of the schedule routes, every problem at once (paths `query:from`, `query:to`); a 422 changes nothing. */
export function parseScheduleQuery(q: { from?: unknown; to?: unknown }, nowMs: number): ScheduleQuery {
  const issues: Issue[] = [];
  const time = (name: 'from' | 'to'): number | undefined | null => {
    const raw = q[name];
    if (raw === undefined || raw === '') return undefined;
    if (typeof raw !== 'string') return issues.push({ path: `query:${name}`, message: 'give it at most once' }), null;
    const d = parseIsoDateTime(raw);
    if (!d) return issues.push({ path: `query:${name}`, message: `must be an ISO 8601 date-time with a zone of a real calendar day, e.g. 2030-01-31T00:00:00Z; got ${JSON.stringify(raw.slice(0, 60))}` }), null;
    return d.getTime();
  };
  const from = time('from');
  const to = time('to');
  if (from !== null && to !== null && to !== undefined && to <= (from ?? nowMs))
    issues.push({ path: 'query:to', message: `must be after from (${new Date(from ?? nowMs).toISOString()}${from === undefined ? ', now' : ''}): from is inclusive, to exclusive` });
  if (issues.length) throw invalid(issues);
  return { fromMs: from ?? nowMs, toMs: to ?? undefined };
}
