#!/usr/bin/env node
/**
 * Operations: `migrate` (run pending migrations), `seed-demo [--keys-file FILE] [--new-keys]` (operator key
 * from FALLOW_BOOTSTRAP_KEY and the demo tenant's keys: src/ops/seed-demo.ts), `openapi [FILE]` (write the
 * OpenAPI document generated from the code).
 */
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { Logger, LoggerService } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { loadConfig } from '../config';
import { dataSourceOptions } from '../modules/database/data-source';
import { seedDemoCommand } from './seed-demo';

export async function migrate(databaseUrl: string): Promise<string[]> {
  const ds = await new DataSource(dataSourceOptions(databaseUrl)).initialize();
  try {
    return (await ds.runMigrations({ transaction: 'each' })).map((m) => m.name);
  } finally {
    await ds.destroy();
  }
}

/**
 * The OpenAPI document without connecting anywhere: preview mode builds routes but no providers. The whole
 * application is loaded only here (seconds on a busy machine that migrate and seed-demo, run by every
 * `npm run up`, need not wait for).
 */
export async function openApiDocument(): Promise<object> {
  const [{ NestFactory }, { AppModule }, { buildOpenApiDocument }] = await Promise.all([import('@nestjs/core'), import('../app.module'), import('../api/openapi')]);
  const config = loadConfig({});
  const app = await NestFactory.create(AppModule.forRoot(config), { preview: true, logger: false, abortOnError: false });
  const doc = buildOpenApiDocument(app, config);
  await app.close();
  return doc;
}

/** Warnings and errors as plain `warning: ...` lines on stderr: a command's stdout is its result. */
const plainLogger: LoggerService = {
  log: () => undefined,
  warn: (message: unknown) => process.stderr.write(`warning: ${String(message)}\n`),
  error: (message: unknown) => process.stderr.write(`error: ${String(message)}\n`),
};

async function main(argv: string[]): Promise<void> {
  const [command, arg] = argv;
  Logger.overrideLogger(plainLogger);
  if (command === 'migrate') {
    const ran = await migrate(loadConfig().databaseUrl);
    process.stdout.write(ran.length ? `migrations applied: ${ran.join(', ')}\n` : 'database schema is up to date\n');
  } else if (command === 'seed-demo') {
    await seedDemoCommand(argv.slice(1));
  } else if (command === 'openapi') {
    const json = JSON.stringify(await openApiDocument(), null, 2) + '\n';
    if (arg) writeFileSync(arg, json);
    else process.stdout.write(json);
  } else {
    process.stderr.write('usage: node dist/src/ops/main.js migrate | seed-demo [--keys-file FILE] [--new-keys] | openapi [FILE]\n');
    process.exit(2);
  }
}

if (require.main === module)
  main(process.argv.slice(2)).catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
