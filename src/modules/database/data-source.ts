import { join } from 'node:path';
import { DataSource, DataSourceOptions } from 'typeorm';
import { loadConfig } from '../../config';
import { ENTITIES } from './entities';
import { GuardedClient } from './guarded-client';

/** Compiled migrations live in dist/migrations; the schema only ever changes through them. */
const MIGRATIONS_GLOB = join(__dirname, '..', '..', '..', 'migrations', '*.js');

export function dataSourceOptions(databaseUrl: string): DataSourceOptions {
  return {
    type: 'postgres',
    url: databaseUrl,
    entities: ENTITIES,
    migrations: [MIGRATIONS_GLOB],
    synchronize: false,
    // gen_random_uuid() is built into PostgreSQL 13+, so no extension has to be installed.
    uuidExtension: 'pgcrypto',
    migrationsRun: false,
    logging: ['error'],
    // Fail fast when Postgres is away: a request waits at most 3 s for a connection, then answers 503.
    // Every pooled connection is a GuardedClient: a connection Postgres cuts never crashes the process.
    extra: { max: 10, connectionTimeoutMillis: 3000, Client: GuardedClient },
  };
}

/** For the TypeORM CLI (`npm run migration:generate`, `npm run migration:run`). */
export default new DataSource(dataSourceOptions(loadConfig().databaseUrl));
