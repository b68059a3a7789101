#!/usr/bin/env node
/**
 * Operations: `migrate` (run pending migrations), `seed-demo` (operator key from FALLOW_BOOTSTRAP_KEY and a
 * demo tenant with a printed key), `openapi [FILE]` (write the OpenAPI document generated from the code).
 */
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { buildOpenApiDocument } from './api/openapi';
import { AppModule } from './app.module';
import { loadConfig } from './config';
import { ApiKeyEntity } from './modules/auth/api-key.entity';
import { ApiKeysRepository } from './modules/auth/api-keys.repository';
import { AuthService } from './modules/auth/auth.service';
import { TenantEntity } from './modules/auth/tenant.entity';
import { TenantsRepository } from './modules/auth/tenants.repository';
import { dataSourceOptions } from './modules/database/data-source';

export async function migrate(databaseUrl: string): Promise<string[]> {
  const ds = await new DataSource(dataSourceOptions(databaseUrl)).initialize();
  try {
    return (await ds.runMigrations({ transaction: 'each' })).map((m) => m.name);
  } finally {
    await ds.destroy();
  }
}

/** The OpenAPI document without connecting anywhere: preview mode builds routes but no providers. */
export async function openApiDocument(): Promise<object> {
  const config = loadConfig({});
  const app = await NestFactory.create(AppModule.forRoot(config), { preview: true, logger: false, abortOnError: false });
  const doc = buildOpenApiDocument(app, config);
  await app.close();
  return doc;
}

async function seedDemo(): Promise<void> {
  const config = loadConfig();
  const ds = await new DataSource(dataSourceOptions(config.databaseUrl)).initialize();
  try {
    const auth = new AuthService(new ApiKeysRepository(ds.getRepository(ApiKeyEntity)), new TenantsRepository(ds.getRepository(TenantEntity)), config);
    await auth.bootstrap();
    const tenant = await auth.ensureTenant('demo');
    const keys = ds.getRepository(ApiKeyEntity);
    for (const role of ['farmer', 'customer'] as const) {
      const existing = await keys.findOneBy({ tenantId: tenant.id, role, label: 'demo' });
      if (existing) {
        process.stdout.write(`demo ${role} key: already issued (prefix ${existing.prefix}); revoke it and run seed-demo again for a new one\n`);
        continue;
      }
      const { key } = await auth.issueKey(tenant.id, role, 'demo');
      process.stdout.write(`demo ${role} key: ${key}\n`);
    }
  } finally {
    await ds.destroy();
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, arg] = argv;
  if (command === 'migrate') {
    const ran = await migrate(loadConfig().databaseUrl);
    process.stdout.write(ran.length ? `migrations applied: ${ran.join(', ')}\n` : 'database schema is up to date\n');
  } else if (command === 'seed-demo') {
    await seedDemo();
  } else if (command === 'openapi') {
    const json = JSON.stringify(await openApiDocument(), null, 2) + '\n';
    if (arg) writeFileSync(arg, json);
    else process.stdout.write(json);
  } else {
    process.stderr.write('usage: node dist/src/ops.js migrate | seed-demo | openapi [FILE]\n');
    process.exit(2);
  }
}

if (require.main === module)
  main(process.argv.slice(2)).catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
