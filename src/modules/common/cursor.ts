import { invalid } from './problem';

/** Opaque cursors for keyset pagination over (created_at, id), newest first. */
export interface CursorPosition {
  createdAt: Date;
  id: string;
}

export function encodeCursor(p: CursorPosition): string {
  return Buffer.from(`${p.createdAt.toISOString()}|${p.id}`).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): CursorPosition | undefined {
  if (!cursor) return undefined;
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(at);
  if (!id || Number.isNaN(createdAt.getTime())) throw invalid([{ path: 'query:cursor', message: 'not a cursor this API returned' }]);
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
