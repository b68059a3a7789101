import { Injectable } from '@nestjs/common';
import { FC_DEFAULTS, FcWeights, weightsIssues } from '../../engine/evaluate/posum-score';
import { pageOf } from '../common/keyset-page';
import { conflict, invalid, notFound } from '../common/problem';
import { ApiKeyEntity, Role } from './api-key.entity';
import { ApiKeysRepository } from './api-keys.repository';
import { AuthService } from './auth.service';
import { TenantEntity } from './tenant.entity';
import { TenantsRepository } from './tenants.repository';

/** What operators do with tenants and their keys (TenantsController). */
@Injectable()
export class TenantsService {
  constructor(
    private readonly auth: AuthService,
    private readonly tenants: TenantsRepository,
    private readonly keys: ApiKeysRepository,
  ) {}

  async create(name: string): Promise<TenantEntity> {
    if (await this.tenants.existsByName(name)) throw conflict(`a tenant named "${name}" exists`);
    return this.tenants.insert(name);
  }

  /** A page of tenants, newest first, like every other listing. */
  async list(limit: number, cursor?: string): Promise<{ items: TenantEntity[]; nextCursor: string | null }> {
    return pageOf(await this.tenants.page(limit, cursor), limit, (t) => t);
  }

  /** The tenant, else 404. */
  async get(id: string): Promise<TenantEntity> {
    const t = await this.tenants.findById(id);
    if (!t) throw notFound('tenant', id);
    return t;
  }

  async setRevenueShare(id: string, shareBps: number): Promise<TenantEntity> {
    const tenant = await this.get(id);
    tenant.revenueShareBps = shareBps;
    return this.tenants.save(tenant);
  }

  /** The tenant's default POSUM weights; 422 naming every bad field, changing nothing. */
  async setScoreWeights(id: string, w: FcWeights): Promise<TenantEntity> {
    const issues = weightsIssues(w);
    if (issues.length) throw invalid(issues);
    const tenant = await this.get(id);
    tenant.scoreWeights = { alpha: w.alpha, beta: w.beta, gamma: w.gamma };
    return this.tenants.save(tenant);
  }

  /** What a request that gives no alpha, beta or gamma is weighed with: the tenant's default, else 1/1/1. */
  async scoreWeightsOf(id: string): Promise<FcWeights> {
    return (await this.tenants.findById(id))?.scoreWeights ?? FC_DEFAULTS;
  }

  /** A new key of the tenant; the key itself is returned this once. */
  async issueKey(id: string, role: Role, label: string): Promise<{ row: ApiKeyEntity; key: string }> {
    await this.get(id);
    return this.auth.issueKey(id, role, label);
  }

  async listKeys(id: string): Promise<ApiKeyEntity[]> {
    await this.get(id);
    return this.keys.listOfTenant(id);
  }

  /** Revoking a revoked key is fine (204); a key the tenant does not have is a 404. */
  async revokeKey(id: string, keyId: string): Promise<void> {
    if (!(await this.keys.revoke(id, keyId)) && !(await this.keys.existsOfTenant(id, keyId))) throw notFound('key', keyId);
  }
}
