/**
 * `node dist/src/ops/main.js seed-demo [--keys-file FILE] [--new-keys]`: the operator key from FALLOW_BOOTSTRAP_KEY, the demo
 * tenant and its farmer and customer keys, printed as `demo <role> key: <key>` lines on stdout.
 *   --keys-file FILE  the keys kept by an earlier run (same line format; `npm run up` keeps .tmp/demo-keys):
 *                     a kept key that still works is shown again, any other role gets a new key, and FILE is
 *                     rewritten with what is shown. Other demo keys (another checkout's) stay valid.
 *   --new-keys        revokes every demo key first (every checkout's), then issues new ones.
 * Without --keys-file a key is issued only for a role without one; an existing key cannot be shown again.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DataSource } from 'typeorm';
import { loadConfig } from '../config';
import { ApiKeyEntity } from '../modules/auth/api-key.entity';
import { ApiKeysRepository } from '../modules/auth/api-keys.repository';
import { AuthService } from '../modules/auth/auth.service';
import { DEMO_ROLES, DemoKey, DemoKeys, DemoRole } from '../modules/auth/demo-keys';
import { TenantEntity } from '../modules/auth/tenant.entity';
import { TenantsRepository } from '../modules/auth/tenants.repository';
import { dataSourceOptions } from '../modules/database/data-source';

const KEY_LINE = /^demo ([a-z]+) key: (\S+)$/;

/** The keys kept in the file (the last line of a role wins: older files were appended to); none if it is missing. */
export function readKeptKeys(file: string): Partial<Record<DemoRole, string>> {
  const kept: Partial<Record<DemoRole, string>> = {};
  if (!existsSync(file)) return kept;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = KEY_LINE.exec(line.trim());
    if (m && (DEMO_ROLES as readonly string[]).includes(m[1])) kept[m[1] as DemoRole] = m[2];
  }
  return kept;
}

function writeKeptKeys(file: string, lines: string[]): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, lines.map((l) => `${l}\n`).join(''), { mode: 0o600 });
  renameSync(tmp, file);
}

function keyLine(k: DemoKey): string {
  if (k.origin === 'elsewhere') return `demo ${k.role} key: issued earlier (prefix ${k.prefix}) and not shown again; seed-demo --new-keys revokes the demo keys and issues new ones`;
  return `demo ${k.role} key: ${k.key}`;
}

export async function seedDemoCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { 'keys-file': { type: 'string' }, 'new-keys': { type: 'boolean' } }, strict: true });
  const file = values['keys-file'];
  const config = loadConfig();
  const ds = await new DataSource(dataSourceOptions(config.databaseUrl)).initialize();
  try {
    const keysRepo = new ApiKeysRepository(ds.getRepository(ApiKeyEntity));
    const auth = new AuthService(keysRepo, new TenantsRepository(ds.getRepository(TenantEntity)), config);
    await auth.bootstrap();
    const kept = file === undefined ? undefined : readKeptKeys(file);
    const { keys, revoked } = await new DemoKeys(auth, keysRepo).seed({ kept, renew: values['new-keys'] });
    const lines = keys.map(keyLine);
    if (file !== undefined) writeKeptKeys(file, lines);
    if (revoked) process.stdout.write(`revoked ${revoked} earlier demo key${revoked === 1 ? '' : 's'}\n`);
    const replaced = keys.filter((k) => k.origin === 'issued' && kept?.[k.role]).map((k) => k.role);
    if (replaced.length && !values['new-keys']) process.stdout.write(`issued new demo keys (${replaced.join(', ')}): the ones kept in ${file} no longer work\n`);
    process.stdout.write(lines.map((l) => `${l}\n`).join(''));
  } finally {
    await ds.destroy();
  }
}
