import { Injectable } from '@nestjs/common';
import type { SlotPeak } from '../../engine/forecast/miss';
import { InjectDataSource } from '@nestjs/typeorm';
import type { PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import { UsageHistory } from '../../engine/forecast';
import { binaryRows, CopyFrom } from './pg-copy';
import { orderRows } from './usage-order';
import { SampleColumns } from './usage-samples';

export interface SeriesSummary {
  node: string;
  metric: string;
  samples: number;
  from: Date;
  to: Date;
}

export interface TrainingHistory {
  history: UsageHistory;
  /** Unix seconds of the first and last sample loaded. */
  from: number;
  to: number;
  samples: number;
}

const DAY_SECONDS = 86_400;

/** A sample sent with another value than the stored one (`stored`) or than its first occurrence in the request (`first`). */
export interface UsageConflict {
  node: string;
  metric: string;
  timestamp: number;
  stored: number | null;
  first: number | null;
  sent: number;
}

/** Usage history in Postgres: usage_series (one row per cluster, node, metric) and usage_samples. */
@Injectable()
export class UsageRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Writes the samples in one transaction and returns how many were new. Ingests of one cluster are
   * serialised by an advisory lock, so the overlap check stays true until commit: when no stored sample
   * falls inside the time span of any incoming series, the rows go straight in with COPY; otherwise they
   * are copied to a temporary table and inserted with ON CONFLICT DO NOTHING (the stored sample wins).
   */
  async insert(clusterId: string, c: SampleColumns): Promise<{ accepted: number } | { conflicts: UsageConflict[] }> {
    const rows = orderRows(c);
    const show = (i: number) => ({ node: c.series[c.seriesOf[i]].node, metric: c.series[c.seriesOf[i]].metric, timestamp: c.ts[i] });
    if (rows.repeats.length) return { conflicts: rows.repeats.map(([a, b]) => ({ ...show(a), stored: null, first: c.value[a], sent: c.value[b] })) };
    const runner = this.db.createQueryRunner();
    const client = (await runner.connect()) as PoolClient;
    try {
      await runner.startTransaction();
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`usage:${clusterId}`]);
      const ids = await this.seriesIds(client, clusterId, c.series);
      const seriesIdOf = new Int32Array(c.ts.length);
      c.series.forEach((_, s) => {
        for (let k = rows.start[s]; k < rows.start[s + 1]; k++) seriesIdOf[k] = ids[s];
      });
      const overlap = await client.query<{ any: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM unnest($1::int[], $2::float8[], $3::float8[]) AS r(id, lo, hi)
                        WHERE EXISTS (SELECT 1 FROM usage_samples u WHERE u.series_id = r.id AND u.ts BETWEEN to_timestamp(r.lo) AND to_timestamp(r.hi))) AS any`,
        [ids, Array.from(rows.first), Array.from(rows.last)],
      );
      const chunks = binaryRows(rows.order.length, (k, out) => {
        const i = rows.order[k];
        out.id = seriesIdOf[k];
        out.ts = c.ts[i];
        out.value = c.value[i];
      });
      let accepted: number;
      if (!overlap.rows[0].any) {
        accepted = await copy(client, 'COPY usage_samples (series_id, ts, value) FROM STDIN (FORMAT binary)', chunks);
      } else {
        await client.query('CREATE TEMP TABLE usage_incoming (series_id int, ts timestamptz, value double precision) ON COMMIT DROP');
        await copy(client, 'COPY usage_incoming (series_id, ts, value) FROM STDIN (FORMAT binary)', chunks);
        const changed = await client.query(
          `SELECT s.node, s.metric, extract(epoch FROM i.ts)::float8 AS ts, u.value AS stored, i.value AS sent
           FROM usage_incoming i JOIN usage_samples u ON u.series_id = i.series_id AND u.ts = i.ts JOIN usage_series s ON s.id = i.series_id
           WHERE u.value <> i.value ORDER BY s.node, s.metric, i.ts LIMIT 100`,
        );
        if (changed.rows.length) {
          await runner.rollbackTransaction();
          return { conflicts: changed.rows.map((r) => ({ node: r.node, metric: r.metric, timestamp: Number(r.ts), stored: r.stored, first: null, sent: r.sent })) };
        }
        accepted = (await client.query('INSERT INTO usage_samples (series_id, ts, value) SELECT series_id, ts, value FROM usage_incoming ON CONFLICT DO NOTHING')).rowCount ?? 0;
      }
      await runner.commitTransaction();
      return { accepted };
    } catch (e) {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      throw e;
    } finally {
      await runner.release();
    }
  }

  /** Per node and metric of a cluster: sample count and time range. */
  async summary(clusterId: string): Promise<SeriesSummary[]> {
    return this.db.query(
      `SELECT s.node, s.metric, count(*)::int AS samples, min(u.ts) AS "from", max(u.ts) AS "to"
       FROM usage_series s JOIN usage_samples u ON u.series_id = s.id
       WHERE s.cluster_id = $1 GROUP BY s.node, s.metric ORDER BY s.node, s.metric`,
      [clusterId],
    );
  }

  /**
   * The history a forecast is trained on: the series of the given nodes and metrics, over the `days` days
   * that end with the last sample of any of them; null when there is none. Each series arrives as two
   * arrays (one row per series), not one row per sample.
   */
  async history(clusterId: string, nodes: string[], metrics: string[], days: number): Promise<TrainingHistory | null> {
    const [{ last }] = await this.db.query(
      `SELECT max((SELECT max(u.ts) FROM usage_samples u WHERE u.series_id = s.id)) AS last
       FROM usage_series s WHERE s.cluster_id = $1 AND s.node = ANY($2) AND s.metric = ANY($3)`,
      [clusterId, nodes, metrics],
    );
    if (!last) return null;
    const to = (last as Date).getTime() / 1000;
    const rows: { node: string; metric: string; t: number[]; v: number[] }[] = await this.db.query(
      `SELECT s.node, s.metric, array_agg(extract(epoch FROM u.ts)::float8 ORDER BY u.ts) AS t, array_agg(u.value ORDER BY u.ts) AS v
       FROM usage_series s JOIN usage_samples u ON u.series_id = s.id
       WHERE s.cluster_id = $1 AND s.node = ANY($2) AND s.metric = ANY($3) AND u.ts > to_timestamp($4) AND u.ts <= to_timestamp($5)
       GROUP BY s.node, s.metric ORDER BY s.node, s.metric`,
      [clusterId, nodes, metrics, to - days * DAY_SECONDS, to],
    );
    const history: UsageHistory = {};
    let samples = 0;
    let from = Infinity;
    for (const r of rows) {
      (history[r.node] ??= {})[r.metric] = { t: Float64Array.from(r.t), v: Float64Array.from(r.v) };
      samples += r.t.length;
      from = Math.min(from, r.t[0]);
    }
    return { history, from, to, samples };
  }

  /**
   * The time span `history` would load (first and last sample over the given nodes and metrics, within the
   * `days` days ending with the last), without loading it: what a build request is checked against. Null: no samples.
   */
  async trainingSpan(clusterId: string, nodes: string[], metrics: string[], days: number): Promise<{ from: number; to: number } | null> {
    const [row]: { from: number | null; to: number | null }[] = await this.db.query(
      `WITH s AS (SELECT id FROM usage_series WHERE cluster_id = $1 AND node = ANY($2) AND metric = ANY($3)),
            last AS (SELECT max((SELECT max(u.ts) FROM usage_samples u WHERE u.series_id = s.id)) AS ts FROM s)
       SELECT extract(epoch FROM (SELECT ts FROM last))::float8 AS "to",
              extract(epoch FROM (SELECT min((SELECT min(u.ts) FROM usage_samples u WHERE u.series_id = s.id AND u.ts > (SELECT ts FROM last) - make_interval(days => $4))) FROM s))::float8 AS "from"`,
      [clusterId, nodes, metrics, days],
    );
    return row.to === null || row.from === null ? null : { from: row.from, to: row.to };
  }

  /**
   * Per node, metric and slot of a grid (slot t: [startsAtMs + t x slotSeconds, + slotSeconds)), the largest
   * sample in (fromMs, toMs]: what those slots really used, against a forecast on that grid.
   */
  async slotPeaks(clusterId: string, fromMs: number, toMs: number, grid: { startsAtMs: number; slotSeconds: number }): Promise<SlotPeak[]> {
    const rows: { node: string; metric: string; slot: number; peak: number }[] = await this.db.query(
      `SELECT s.node, s.metric, floor((extract(epoch FROM u.ts) * 1000 - $4) / ($5 * 1000))::int AS slot, max(u.value) AS peak
       FROM usage_series s JOIN usage_samples u ON u.series_id = s.id
       WHERE s.cluster_id = $1 AND u.ts > to_timestamp($2 / 1000.0) AND u.ts <= to_timestamp($3 / 1000.0)
       GROUP BY 1, 2, 3`,
      [clusterId, fromMs, toMs, grid.startsAtMs, grid.slotSeconds],
    );
    return rows.map((r) => ({ node: r.node, metric: r.metric, slot: r.slot, peak: Number(r.peak) }));
  }

  /** Series ids of (node, metric) pairs of a cluster, created when new; in the order given. */
  private async seriesIds(client: PoolClient, clusterId: string, series: { node: string; metric: string }[]): Promise<number[]> {
    const nodes = series.map((s) => s.node);
    const metrics = series.map((s) => s.metric);
    await client.query(
      'INSERT INTO usage_series (cluster_id, node, metric) SELECT $1, * FROM unnest($2::text[], $3::text[]) ON CONFLICT DO NOTHING',
      [clusterId, nodes, metrics],
    );
    const found = await client.query<{ id: number; node: string; metric: string }>(
      'SELECT s.id, s.node, s.metric FROM usage_series s JOIN unnest($2::text[], $3::text[]) AS r(node, metric) USING (node, metric) WHERE s.cluster_id = $1',
      [clusterId, nodes, metrics],
    );
    const id = new Map(found.rows.map((r) => [`${r.node}\u0000${r.metric}`, r.id]));
    return series.map((s) => id.get(`${s.node}\u0000${s.metric}`)!);
  }
}

function copy(client: PoolClient, sql: string, chunks: Buffer[]): Promise<number> {
  const c = new CopyFrom(sql, chunks);
  void client.query(c as never);
  return c.promise;
}
