/**
 * A private PostgreSQL server for fault tests: initdb into a temporary folder, on its own port, started
 * and stopped at will (never the shared server). As root it runs as the `postgres` user (initdb refuses root).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
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
  port: number;
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  start(): void;
  /** A fast shutdown: open connections are cut, as in an outage. */
  stop(): void;
  remove(): void;
}

export function privatePostgres(port: number): PrivatePostgres {
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
  const opts = `-p ${port} -k ${base} -c listen_addresses=127.0.0.1 -c fsync=off`;
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => void run(path.join(bin, 'pg_ctl'), ['-D', data, '-o', opts, '-l', path.join(base, 'log'), '-w', 'start']),
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
