import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { ApiKeyEntity } from './api-key.entity';

/** The api_keys table: only digests of keys are stored. */
@Injectable()
export class ApiKeysRepository {
  constructor(@InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>) {}

  /** The unrevoked key with this digest. */
  findActiveByHash(keyHash: string): Promise<ApiKeyEntity | null> {
    return this.keys.findOne({ where: { keyHash, revokedAt: IsNull() } });
  }

  /** Replaces a key's digest and clear prefix (a legacy digest upgraded on use). */
  async rehash(id: string, keyHash: string, prefix: string): Promise<void> {
    await this.keys.update({ id }, { keyHash, prefix });
  }

  existsByHash(keyHash: string): Promise<boolean> {
    return this.keys.exists({ where: { keyHash } });
  }

  /** Whether any unrevoked key has the role (first start: is there an operator yet?). */
  existsActiveWithRole(role: ApiKeyEntity['role']): Promise<boolean> {
    return this.keys.exists({ where: { role, revokedAt: IsNull() } });
  }

  insert(fields: Omit<ApiKeyEntity, 'id' | 'createdAt'>): Promise<ApiKeyEntity> {
    return this.keys.save(this.keys.create(fields));
  }

  /** The tenant's oldest unrevoked key with this role and label (the demo tenant's keys are labelled "demo"). */
  findActiveWithLabel(tenantId: string, role: ApiKeyEntity['role'], label: string): Promise<ApiKeyEntity | null> {
    return this.keys.findOne({ where: { tenantId, role, label, revokedAt: IsNull() }, order: { createdAt: 'ASC' } });
  }

  /** Revokes every unrevoked key of the tenant with this label; how many it revoked. */
  async revokeAllWithLabel(tenantId: string, label: string): Promise<number> {
    const r = await this.keys.update({ tenantId, label, revokedAt: IsNull() }, { revokedAt: new Date() });
    return r.affected ?? 0;
  }

  listOfTenant(tenantId: string): Promise<ApiKeyEntity[]> {
    return this.keys.find({ where: { tenantId }, order: { createdAt: 'ASC' } });
  }

  /** Revokes the tenant's key unless already revoked; true when this call revoked it. */
  async revoke(tenantId: string, id: string): Promise<boolean> {
    const r = await this.keys.update({ id, tenantId, revokedAt: IsNull() }, { revokedAt: new Date() });
    return !!r.affected;
  }

  existsOfTenant(tenantId: string, id: string): Promise<boolean> {
    return this.keys.existsBy({ id, tenantId });
  }
}
