import { Client, ClientConfig } from 'pg';

/**
 * A pg Client that always has an 'error' listener, so a connection Postgres cuts (a restart, an outage,
 * pg_terminate_backend) fails the query that uses it instead of crashing the process.
 *
 * Why the pool and TypeORM's own listeners are not enough: pg-pool removes its idle listener when it hands
 * a client out, and TypeORM attaches its listener a few microtasks later. When a new connection's
 * ReadyForQuery and Postgres's FATAL 57P01 ("terminating connection due to administrator command") arrive
 * in one TCP read, pg emits the error synchronously in between, with no listener: an unhandled 'error'
 * event, and the worker that was about to store a finished solve died (the Postgres outage test, about
 * one run in five on a loaded machine). The error still reaches every query on the client; this listener
 * only keeps the event from being fatal.
 */
export class GuardedClient extends Client {
  constructor(config?: string | ClientConfig) {
    super(config);
    this.on('error', () => undefined);
  }
}
