import { ApiKeysRepository } from './api-keys.repository';
import { AuthService } from './auth.service';

/** The demo tenant `seed-demo` and `npm run up` make, and the label of its keys. */
export const DEMO_TENANT = 'demo';
const DEMO_LABEL = 'demo';
export const DEMO_ROLES = ['farmer', 'customer'] as const;
export type DemoRole = (typeof DEMO_ROLES)[number];

/**
 * A demo key as seeding left it: `key` is the whole key when it can be shown (kept by the caller, or issued
 * now); an older key issued elsewhere is only known by its prefix (only digests are stored).
 */
export type DemoKey = { role: DemoRole; origin: 'kept' | 'issued'; key: string } | { role: DemoRole; origin: 'elsewhere'; prefix: string };

export interface DemoSeedOptions {
  /**
   * The keys the caller kept from an earlier run, by role. Given (even empty), every role ends with a key
   * to show: a kept key that still works is reused, else a new one is issued beside any other demo keys
   * (another checkout on the same database may be using those). Undefined: a key is issued only for a role
   * without any unrevoked demo key.
   */
  kept?: Partial<Record<DemoRole, string>>;
  /** Revoke every unrevoked demo key first, then issue new ones. */
  renew?: boolean;
}

/** Seeds the demo tenant and its farmer and customer keys (after AuthService.bootstrap). */
export class DemoKeys {
  constructor(
    private readonly auth: AuthService,
    private readonly keys: ApiKeysRepository,
  ) {}

  async seed(options: DemoSeedOptions): Promise<{ keys: DemoKey[]; revoked: number }> {
    const tenant = await this.auth.ensureTenant(DEMO_TENANT);
    const revoked = options.renew ? await this.keys.revokeAllWithLabel(tenant.id, DEMO_LABEL) : 0;
    const keys: DemoKey[] = [];
    for (const role of DEMO_ROLES) {
      const kept = options.renew ? undefined : options.kept?.[role];
      const principal = kept ? await this.auth.resolve(kept) : undefined;
      if (kept && principal?.tenantId === tenant.id && principal.role === role) {
        keys.push({ role, origin: 'kept', key: kept });
        continue;
      }
      if (!options.renew && !options.kept) {
        const existing = await this.keys.findActiveWithLabel(tenant.id, role, DEMO_LABEL);
        if (existing) {
          keys.push({ role, origin: 'elsewhere', prefix: existing.prefix });
          continue;
        }
      }
      const { key } = await this.auth.issueKey(tenant.id, role, DEMO_LABEL);
      keys.push({ role, origin: 'issued', key });
    }
    return { keys, revoked };
  }
}
