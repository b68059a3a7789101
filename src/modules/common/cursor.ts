import { MAX_TIME_MS, MIN_TIME_MS } from '../../engine/model/input-bounds';
import { invalid } from './problem';
import { UUID } from './uuid-param';

/** Opaque cursors for keyset pagination over (created_at, id), newest first. */
export interface CursorPosition {
  createdAt: Date;
  id: string;
}

export function encodeCursor(p: CursorPosition): string {
  return Buffer.from(`${p.createdAt.toISOString()}|${p.id}`).toString('base64url');
}

/** A cursor whose id is not a UUID or whose time is not a date Postgres holds is a 422, never a database error. */
export function decodeCursor(cursor: string | undefined): CursorPosition | undefined {
  if (!cursor) return undefined;
  if (typeof cursor !== 'string') throw invalid([{ path: 'query:cursor', message: 'give it at most once' }]);
  const [at, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(at);
  const t = createdAt.getTime();
  if (rest.length || !id || !UUID.test(id) || !(t >= MIN_TIME_MS && t <= MAX_TIME_MS)) throw invalid([{ path: 'query:cursor', message: 'not a cursor this API returned' }]);
  return { createdAt, id };
}

/** A listing's page size when `limit` is not given (`fallback`) and the most it allows (`max`). */
export interface PageLimits {
  fallback: number;
  max: number;
}

/** Every newest-first listing's page sizes (a plan's assignments have their own: PlansController). */
export const LIST_PAGE: PageLimits = { fallback: 50, max: 500 };

/** The `limit` query parameter as a page size: its value, else `fallback`; a 422 naming it when outside [1, max]. */
export function pageLimit(raw: string | undefined, { fallback, max }: PageLimits = LIST_PAGE): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) throw invalid([{ path: 'query:limit', message: `must be an integer in [1, ${max}]` }]);
  return n;
}
