/**
 * A database of its own for a test that changes the schema (migrations), on the Postgres server of DATABASE_URL,
 * never the shared databases: created empty, handed to `work` as a URL, dropped afterwards whatever happens.
 */
import { Client } from 'pg';

export async function withScratchDatabase<T>(prefix: string, work: (url: string) => Promise<T>): Promise<T> {
  const server = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
  const name = `${prefix}_${process.pid}`;
  const admin = new Client({ connectionString: server });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  try {
    return await work(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}
