/**
 * Reading the files a user names on the command line. A missing file or broken JSON is the user's
 * mistake, not Fallow's: an InputError, which the CLI prints as one line (exit 2) without a stack.
 */
import { readFileSync } from 'node:fs';

export class InputError extends Error {}

export function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new InputError(`cannot read ${path}: ${(e as Error).message}`);
  }
}

export function readJson(path: string): unknown {
  const text = readText(path);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new InputError(`${path} is not valid JSON: ${(e as Error).message}`);
  }
}
