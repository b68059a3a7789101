/**
 * Where the benchmarks read and write: the repository root (found from the compiled file, so an entry works from
 * any working directory), ../shared, the instance cache and bench/results/.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';

/** The repository root: the nearest directory above this file holding package.json. */
export function repoRoot(): string {
  let dir = __dirname;
  for (let i = 0; i < 6; i++) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    dir = path.dirname(dir);
  }
  return process.cwd();
}

export function sharedDir(override?: string): string {
  return path.resolve(override ?? process.env.FALLOW_SHARED ?? path.join(repoRoot(), '..', 'shared'));
}

/** Cache for generated instances and written plans: outside git (.tmp/ is ignored). */
export function cacheDir(override?: string): string {
  return path.resolve(override ?? process.env.FALLOW_BENCH_CACHE ?? path.join(repoRoot(), '.tmp', 'bench'));
}

export function resultsDir(): string {
  return path.join(repoRoot(), 'bench', 'results');
}

/** A report file of bench/ (bench/ACOBP.md, ...): the committed reports stay at bench/ root, where docs link to them. */
export function benchFile(name: string): string {
  return path.join(repoRoot(), 'bench', name);
}
