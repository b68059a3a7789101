import { Injectable } from '@nestjs/common';
import type { Quota } from '../../engine/commitments/quota';
import type { Issue } from '../../engine/model/types';
import { Principal } from '../auth/principal';
import { TenantsService } from '../auth/tenants.service';
import { ClustersService } from '../clusters/clusters.service';
import { invalid, notFound } from '../common/problem';
import { DEFAULT_QUOTA, QuotaEntity } from './quota.entity';
import { PutQuotaDto, QuotaDto } from './quota.dto';
import { QuotasRepository } from './quotas.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Per-customer quotas on a cluster, set by its farmer or an operator. A customer without a quota of its own
 * has the cluster's default; without a default it is not limited. Solves cap the customer's capacity to its
 * quota and commits past it are refused, unless it may borrow (PlanCommitmentService takes borrowed capacity back).
 */
@Injectable()
export class QuotasService {
  constructor(
    private readonly quotas: QuotasRepository,
    private readonly clusters: ClustersService,
    private readonly tenants: TenantsService,
  ) {}

  /** Sets (replaces) a customer's quota, or the default; every bad field named at once, nothing written then. */
  async put(p: Principal, clusterId: string, customer: string, dto: PutQuotaDto): Promise<QuotaDto> {
    const { version } = await this.clusters.get(p, clusterId);
    await this.customerExists(customer);
    const issues: Issue[] = [];
    const shares: unknown = dto.shares;
    if (typeof shares !== 'object' || shares === null || Array.isArray(shares)) issues.push({ path: 'shares', message: 'must be an object of metric -> share in [0, 1]' });
    if (dto.borrow !== undefined && typeof dto.borrow !== 'boolean') issues.push({ path: 'borrow', message: `must be true or false, got ${JSON.stringify(dto.borrow)}` });
    for (const [m, v] of Object.entries(issues.some((i) => i.path === 'shares') ? {} : (shares as Record<string, unknown>))) {
      if (!version.metrics.includes(m)) issues.push({ path: `shares.${m}`, message: `unknown metric "${m}" (the cluster's metrics are ${version.metrics.join(', ')})` });
      else if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1) issues.push({ path: `shares.${m}`, message: `must be a share in [0, 1], got ${JSON.stringify(v)}` });
    }
    if (issues.length) throw invalid(issues);
    return toQuotaDto(await this.quotas.put({ clusterId, customer, shares: dto.shares, borrow: dto.borrow ?? false }), customer);
  }

  /** The cluster's quotas (its farmer's or an operator's view). */
  async list(p: Principal, clusterId: string): Promise<QuotaDto[]> {
    await this.clusters.find(p, clusterId);
    return (await this.quotas.list(clusterId)).map((q) => toQuotaDto(q, q.customer));
  }

  /**
   * The quota that applies to a customer: the farmer and operators ask about anyone, a customer about itself
   * on a lendable cluster (404 otherwise, as for a cluster it cannot see).
   */
  async applying(p: Principal, clusterId: string, customer: string): Promise<QuotaDto> {
    const cluster = await this.clusters.findById(clusterId);
    const mayAsk = cluster && (p.role === 'operator' || (p.role === 'farmer' && cluster.tenantId === p.tenantId) || (p.role === 'customer' && cluster.lendable && customer === p.tenantId));
    if (!mayAsk) throw notFound('cluster', clusterId);
    if (customer !== DEFAULT_QUOTA) await this.customerExists(customer);
    const rows = await this.quotas.ownAndDefault(clusterId, customer);
    const row = rows.find((r) => r.customer === customer) ?? rows.find((r) => r.customer === DEFAULT_QUOTA);
    return row ? toQuotaDto(row, customer) : { clusterId, customer, shares: {}, borrow: false, source: 'none', updatedAt: null };
  }

  async remove(p: Principal, clusterId: string, customer: string): Promise<void> {
    await this.clusters.find(p, clusterId);
    if (!(await this.quotas.delete(clusterId, customer))) throw notFound(`quota of cluster ${clusterId} for`, customer);
  }

  /** The quota a customer's solves and commits on the cluster keep to; null: not limited. */
  async effective(clusterId: string, customer: string): Promise<Quota | null> {
    const rows = await this.quotas.ownAndDefault(clusterId, customer);
    const row = rows.find((r) => r.customer === customer) ?? rows.find((r) => r.customer === DEFAULT_QUOTA);
    return row && Object.keys(row.shares).length ? { shares: row.shares, borrow: row.borrow } : null;
  }

  private async customerExists(customer: string): Promise<void> {
    if (customer === DEFAULT_QUOTA) return;
    if (!UUID.test(customer)) throw invalid([{ path: 'customer', message: `must be a tenant id (a UUID) or "${DEFAULT_QUOTA}"` }]);
    await this.tenants.get(customer); // 404 naming the tenant
  }
}

function toQuotaDto(q: QuotaEntity, customer: string): QuotaDto {
  return { clusterId: q.clusterId, customer, shares: q.shares, borrow: q.borrow, source: q.customer === customer ? 'own' : 'default', updatedAt: q.updatedAt.toISOString() };
}
