/**
 * A private PostgreSQL server for fault tests: initdb into a temporary folder, on its own port, started
 * and stopped at will (never the shared server). As root it runs as the `postgres` user (initdb refuses root).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';

function pgBin(): string {
  const roots = ['/usr/lib/postgresql'].filter(existsSync);
  for (const r of roots)
    for (const v of readdirSync(r).sort((a, b) => Number(b) - Number(a))) {
      const bin = path.join(r, v, 'bin');
      if (existsSync(path.join(bin, 'initdb'))) return bin;
    }
  return path.dirname(execFileSync('sh', ['-c', 'command -v initdb']).toString().trim());
}

export interface PrivatePostgres {
  readonly port: number;
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  readonly url: string;
  start(): void;
  /**
   * The first start: on `port`, else (taken, or the server would not start) on up to `tries - 1` other ports below
   * the kernel's ephemeral range (32768-60999 here), where no client connection can be holding them. The error
   * names each port tried and the server log's last lines.
   */
  startOnFreePort(tries?: number): void;
  /** A fast shutdown: open connections are cut, as in an outage. */
  stop(): void;
  remove(): void;
}

export function privatePostgres(firstPort: number = otherPort()): PrivatePostgres {
  let port = firstPort;
  const bin = pgBin();
  const root = userInfo().uid === 0;
  const base = mkdtempSync(path.join(tmpdir(), 'fallow-pgfault-'));
  chmodSync(base, 0o755);
  const data = path.join(base, 'data');
  const uid = root ? Number(execFileSync('id', ['-u', 'postgres']).toString()) : undefined;
  const gid = root ? Number(execFileSync('id', ['-g', 'postgres']).toString()) : undefined;
  if (root) chownSync(base, uid!, gid!);
  const run = (cmd: string, args: string[]) => execFileSync(root ? 'runuser' : cmd, root ? ['-u', 'postgres', '--', cmd, ...args] : args, { cwd: '/', stdio: 'pipe' });
  run(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C']);
  const log = path.join(base, 'log');
  const start = () => void run(path.join(bin, 'pg_ctl'), ['-D', data, '-o', `-p ${port} -k ${base} -c listen_addresses=127.0.0.1 -c fsync=off`, '-l', log, '-w', 'start']);
  return {
    get port() {
      return port;
    },
    get url() {
      return `postgres://postgres@127.0.0.1:${port}/postgres`;
    },
    start,
    startOnFreePort: (tries = 5) => {
      const failed: string[] = [];
      for (;;) {
        try {
          return start();
        } catch {
          const tail = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').slice(-3).join(' | ') : 'no log';
          failed.push(`port ${port}: ${tail}`);
          if (failed.length >= tries) throw new Error(`private Postgres would not start: ${failed.join('; ')}`);
          port = otherPort();
        }
      }
    },
    stop: () => void run(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']),
    remove: () => {
      try {
        run(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already stopped
      }
      rmSync(base, { recursive: true, force: true });
    },
  };
}

/** A port below the kernel's ephemeral range, so that no outgoing connection holds it. */
function otherPort(): number {
  return 20000 + Math.floor(Math.random() * 12000);
}
