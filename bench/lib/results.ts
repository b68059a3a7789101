/** The benchmarks' results files (bench/results/*.json): JSON with a one-space indent, the directory made first. */
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { resultsDir } from './paths';

/** bench/results/NAME. */
export function resultsFile(name: string): string {
  return path.join(resultsDir(), name);
}

/**
 * Writes `data` to `file`, making its directory. `finalNewline: false` keeps the bytes of the files some
 * benchmarks have always written without one (acobp, posum, predict), so a rerun diffs only in its figures.
 */
export function writeJson(file: string, data: unknown, o: { finalNewline?: boolean } = {}): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(data, null, 1) + (o.finalNewline === false ? '' : '\n'));
  return file;
}
