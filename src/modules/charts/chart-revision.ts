import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Which chart code made a stored chart: a hash of the chart files this process runs (src/charts, compiled or
 * not) and of the vega and vega-lite versions. A stored chart is served only by a process whose revision is the
 * one that made it, so a deployment that changes how charts look never serves the old look: its API renders
 * instead (as for a plan stored before charts were stored), and its worker stores the new look with new plans.
 * The same code gives the same revision in the API and in the worker. Computed once per process.
 */
export function chartRevision(): string {
  return (revision ??= compute());
}

let revision: string | undefined;

function compute(): string {
  const hash = createHash('sha256');
  const dir = join(__dirname, '..', '..', 'charts');
  for (const f of readdirSync(dir).filter((n) => /\.(js|ts)$/.test(n) && !n.endsWith('.d.ts')).sort()) hash.update(f).update(readFileSync(join(dir, f)));
  for (const pkg of ['vega', 'vega-lite']) hash.update(`${pkg}@${packageVersion(pkg)}`);
  return hash.digest('hex').slice(0, 16);
}

/** The version of an installed package whose package.json is not exported (vega's): found above its entry file. */
function packageVersion(name: string): string {
  for (let dir = dirname(require.resolve(name)); dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === name) return pkg.version ?? 'unknown';
  }
  return 'unknown';
}
