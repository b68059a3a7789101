/**
 * A Redis server of a test's own (never the shared one), on a random port, without persistence: killing it
 * and starting it again gives an empty Redis, as a restart of a deployment's Redis without persistence does.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import IORedis from 'ioredis';
import { waitFor } from '../../harness/service';

export class PrivateRedis {
  readonly port = 6300 + Math.floor(Math.random() * 90);
  readonly url = `redis://127.0.0.1:${this.port}`;
  private readonly dir = mkdtempSync(path.join(tmpdir(), 'fallow-redis-'));
  private server?: ChildProcess;

  /** Starts the server and waits until it answers. */
  async start(): Promise<void> {
    this.server = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', this.dir], { stdio: 'ignore' });
    await waitFor('the private Redis', async () => ((await this.answers()) ? true : undefined));
  }

  /** Kills the server (SIGKILL: nothing is saved) and waits until it no longer answers. */
  async kill(): Promise<void> {
    if (this.server?.exitCode === null) this.server.kill('SIGKILL');
    await waitFor('Redis to be gone', async () => ((await this.answers()) ? undefined : true));
  }

  async answers(): Promise<boolean> {
    const r = new IORedis({ port: this.port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    try {
      await r.connect();
      return (await r.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      r.disconnect();
    }
  }

  /** A client of the server (quit it when done). */
  client(): IORedis {
    return new IORedis({ port: this.port, host: '127.0.0.1' });
  }

  /** Stops the server for good. */
  stop(): void {
    if (this.server?.exitCode === null) this.server.kill('SIGKILL');
  }
}
