import { Inject, Injectable, Logger } from '@nestjs/common';
import { Config, CONFIG } from '../../config';
import { ApiKeyEntity, Role } from './api-key.entity';
import { ApiKeysRepository } from './api-keys.repository';
import { generateKey, hashKey, keyPrefix, legacyHashKey } from './keys';
import { Principal } from './principal';
import { TenantEntity } from './tenant.entity';
import { TenantsRepository } from './tenants.repository';

export const OPERATOR_TENANT = 'operator';

/** The key secret of a development run without FALLOW_KEY_SECRET (well known: production refuses it). */
const DEVELOPMENT_KEY_SECRET = 'fallow-development-key-secret-not-for-production';

@Injectable()
export class AuthService {
  private readonly log = new Logger('auth');
  private readonly secret: string;

  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly tenants: TenantsRepository,
    @Inject(CONFIG) private readonly config: Config,
  ) {
    this.secret = config.keySecret ?? DEVELOPMENT_KEY_SECRET;
  }

  /** The key's principal. A key stored before digests were HMACed is found by its old digest once and rewritten. */
  async resolve(key: string): Promise<Principal | undefined> {
    const hash = hashKey(key, this.secret);
    let row = await this.keys.findActiveByHash(hash);
    if (!row) {
      row = await this.keys.findActiveByHash(legacyHashKey(key));
      if (row) await this.keys.rehash(row.id, hash, keyPrefix(key));
    }
    return row ? { keyId: row.id, tenantId: row.tenantId, role: row.role } : undefined;
  }

  async issueKey(tenantId: string, role: Role, label = ''): Promise<{ row: ApiKeyEntity; key: string }> {
    const key = generateKey();
    const row = await this.keys.insert({ tenantId, role, label, prefix: keyPrefix(key), keyHash: hashKey(key, this.secret), revokedAt: null });
    return { row, key };
  }

  /** Stores `key` as an operator key of the operator tenant unless it is already there. */
  async ensureKey(tenantName: string, role: Role, key: string, label: string): Promise<TenantEntity> {
    const tenant = await this.ensureTenant(tenantName);
    if (await this.resolve(key)) return tenant; // also rewrites a legacy digest of it
    const hash = hashKey(key, this.secret);
    if (!(await this.keys.existsByHash(hash))) await this.keys.insert({ tenantId: tenant.id, role, label, prefix: keyPrefix(key), keyHash: hash, revokedAt: null });
    return tenant;
  }

  ensureTenant(name: string): Promise<TenantEntity> {
    return this.tenants.ensure(name);
  }

  /**
   * First start: the operator key comes from FALLOW_BOOTSTRAP_KEY; without it, and when no operator key
   * exists yet, one is generated and printed once (it cannot be shown again: only its digest is kept).
   */
  async bootstrap(): Promise<void> {
    if (!this.config.keySecret) {
      if (this.config.production) throw new Error('FALLOW_KEY_SECRET is required in production: the HMAC secret of stored API key digests (e.g. openssl rand -hex 32)');
      this.log.warn('FALLOW_KEY_SECRET is unset: API key digests use the well-known development secret');
    }
    if (this.config.bootstrapKey) {
      await this.ensureKey(OPERATOR_TENANT, 'operator', this.config.bootstrapKey, 'bootstrap');
      return;
    }
    if (await this.keys.existsActiveWithRole('operator')) return;
    const tenant = await this.ensureTenant(OPERATOR_TENANT);
    const { key } = await this.issueKey(tenant.id, 'operator', 'generated at first start');
    // Deliberately on stdout and not in the structured log: it is shown once, to whoever started the service.
    process.stdout.write(`\nFallow operator key (shown once, keep it safe): ${key}\n\n`);
    this.log.warn('no FALLOW_BOOTSTRAP_KEY: generated an operator key and printed it on stdout');
  }
}
