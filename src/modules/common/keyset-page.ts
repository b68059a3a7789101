import { Brackets, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { decodeCursor, encodeCursor } from './cursor';
import { invalid } from './problem';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Newest-first keyset pagination over (created_at, id) for the farmer and customer listings.
 *
 * Postgres keeps microseconds but a JS Date (and so the cursor) only milliseconds; comparing the raw column
 * with a cursor would skip rows created in the same millisecond as the last row of a page. Ordering and
 * comparing on the millisecond-truncated time keeps the cursor exact.
 */
export function newestFirst<T extends ObjectLiteral>(q: SelectQueryBuilder<T>, alias: string, limit: number, cursor?: string): SelectQueryBuilder<T> {
  const at = `date_trunc('milliseconds', ${alias}.created_at)`;
  q.orderBy(at, 'DESC').addOrderBy(`${alias}.id`, 'DESC').limit(limit + 1);
  const after = decodeCursor(cursor);
  if (after && !UUID.test(after.id)) throw invalid([{ path: 'query:cursor', message: 'not a cursor this API returned' }]);
  if (after)
    q.andWhere(
      new Brackets((b) =>
        b.where(`${at} < :cursorAt`, { cursorAt: after.createdAt }).orWhere(`${at} = :cursorAt AND ${alias}.id < :cursorId`, { cursorAt: after.createdAt, cursorId: after.id }),
      ),
    );
  return q;
}

/** Cuts the extra row fetched by `newestFirst` and makes the cursor of the next page from the last item. */
export function pageOf<R>(rows: R[], limit: number, position: (r: R) => { createdAt: Date; id: string }): { items: R[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  return { items, nextCursor: rows.length > limit ? encodeCursor(position(items[items.length - 1])) : null };
}
