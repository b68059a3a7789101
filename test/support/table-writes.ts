/**
 * Whether anything was written to a test database between two moments: one SQL statement reads, for every
 * table, its row count and the newest row version's transaction id (xmin). An insert or a delete changes the
 * count; an update makes a new row version whose xmin is the newest, so it changes the second number even
 * when the count stays. Rolled-back work is invisible to both, as it should be: "nothing written" means nothing
 * committed.
 */
type Sql = <T>(text: string, params?: unknown[]) => Promise<T[]>;

/** Per table: `rows/newest xmin`. */
export type TableSnapshot = Record<string, string>;

/**
 * A function taking a snapshot of every table of the public schema but `except` (tables that are written on
 * purpose by requests that change nothing else, or that are not the service's). The table list is read once,
 * from the catalogue, so a table added by a migration is covered without being named here.
 */
export async function tableSnapshots(sql: Sql, except: string[] = []): Promise<() => Promise<TableSnapshot>> {
  const tables = (await sql<{ t: string }>(`SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' AND NOT (tablename = ANY($1)) ORDER BY 1`, [except])).map((r) => r.t);
  if (!tables.length) throw new Error('no tables to watch');
  const rows = tables.map((t) => `('${t}', (SELECT count(*) || '/' || coalesce(max(xmin::text::bigint), 0) FROM "${t}"))`);
  const text = `SELECT json_object_agg(t, v) AS s FROM (VALUES ${rows.join(', ')}) AS x(t, v)`;
  return async () => (await sql<{ s: TableSnapshot }>(text))[0].s;
}

/** The tables whose snapshot differs, as `table: before -> after` (empty when nothing was written). */
export function tablesWritten(before: TableSnapshot, after: TableSnapshot): string[] {
  return Object.keys(after)
    .filter((t) => before[t] !== after[t])
    .map((t) => `${t}: ${before[t]} -> ${after[t]}`);
}
