/**
 * What the CLI prints for an error and the exit code it answers (args.ts EXIT_CODES): 2 with one
 * message for a user's mistake (bad usage, unreadable file, invalid document), 1 for Fallow's own failure.
 * The stack trace only with --debug, whichever it was.
 */
import { UsageError } from './args';
import { InputError } from './input';
import { ForecastInputError } from '../engine/forecast';
import { ValidationError } from '../engine/model/errors';

export function describeError(command: string, e: unknown, debug: boolean): { code: number; text: string } {
  const head = `fallow ${command}: `;
  const stack = debug ? `${(e as Error)?.stack ?? e}\n` : '';
  if (e instanceof UsageError) return { code: 2, text: `${head}${e.message} (see fallow ${command} --help)\n${stack}` };
  if (e instanceof ValidationError)
    return { code: 2, text: `${head}${e.what} is not valid:\n${e.issues.map((i) => `  ${i.path}: ${i.message}\n`).join('')}${stack}` };
  if (e instanceof InputError || e instanceof ForecastInputError) return { code: 2, text: `${head}${e.message}\n${stack}` };
  const message = (e as Error)?.message ?? String(e);
  return { code: 1, text: `${head}internal error: ${message}${debug ? '' : ' (--debug prints the stack trace)'}\n${stack}` };
}
