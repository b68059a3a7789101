/**
 * A connection Postgres cuts while the pool has handed it out, before anyone listens on it, must fail the
 * work that uses it and never crash the process (the Postgres outage test lost its worker this way: an
 * unhandled 'error' event). pg_terminate_backend sends the same FATAL 57P01 as a shutdown, on the shared
 * server, without stopping it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Client, Pool, PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/modules/database/data-source';

const SERVER = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

describe('a connection Postgres cuts', () => {
  it('is dropped from the pool without crashing the process, and the next query gets a fresh one', async () => {
    const ds = await new DataSource(dataSourceOptions(SERVER)).initialize();
    const admin = new Client({ connectionString: SERVER });
    await admin.connect();
    try {
      const pool = (ds.driver as unknown as { master: Pool }).master;
      // Checked out straight from the pool: pg-pool has removed its idle listener and TypeORM never added its own.
      const client: PoolClient = await pool.connect();
      const [{ pid }] = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
      const ended = new Promise((resolve) => client.once('end', resolve)); // not events.once: it rejects on 'error'
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      await ended; // the FATAL was read and the socket closed: an unguarded client has thrown by now
      await assert.rejects(client.query('SELECT 1'));
      client.release(new Error('cut by the server'));
      const [{ n }] = await ds.query('SELECT 1 AS n');
      assert.equal(n, 1);
    } finally {
      await admin.end();
      await ds.destroy();
    }
  });
});
