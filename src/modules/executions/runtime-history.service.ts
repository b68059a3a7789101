import { Injectable } from '@nestjs/common';
import { emptyStats, Moments, StageStats, TenantHistory } from '../../engine/predict';
import { ExecutionsRepository, HistoryRow } from './executions.repository';
import { HISTORY_MOMENTS } from './stage-history.entity';

/** Jobs' stages of the same class or kind the predictors look back on (POSUM's "maximum number of past jobs"). */
export const RECENT_JOBS = 20;

/** What the runtime predictors know of a tenant: sums over its most recent executed jobs (stage_history). */
@Injectable()
export class RuntimeHistoryService {
  constructor(private readonly repo: ExecutionsRepository) {}

  async forTenant(tenantId: string, keys: { mapClasses: string[]; reduceClasses: string[] }, recent = RECENT_JOBS): Promise<TenantHistory> {
    const rows = await this.repo.history(tenantId, keys.mapClasses, keys.reduceClasses, recent);
    const kinds = new Map(rows.byKind.map((r) => [r.key as string, toStats(r)]));
    return {
      byMapClass: new Map(rows.byMapClass.map((r) => [r.key as string, toStats(r)])),
      byReduceClass: new Map(rows.byReduceClass.map((r) => [r.key as string, toStats(r)])),
      recentMaps: kinds.get('map') ?? null,
      recentReduces: kinds.get('reduce') ?? null,
    };
  }
}

function toStats(r: HistoryRow): StageStats {
  const s = emptyStats();
  s.bytesIn = Number(r.bytes_in);
  s.bytesOut = Number(r.bytes_out);
  for (const [column, field] of Object.entries(HISTORY_MOMENTS)) {
    const v = (suffix: string) => Number(r[`${column}_${suffix}`]);
    const m: Moments = { n: v('n'), sum: v('sum'), sumSq: v('sum_sq'), num: v('num'), den: v('den') };
    (s as unknown as Record<string, Moments>)[field] = m;
  }
  return s;
}
