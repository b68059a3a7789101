/**
 * How every `fallow` command reads its arguments and describes itself. A command is a CommandSpec (its
 * synopsis, its options with their defaults) and a run function; `src/cli/main.ts` routes to it, answers
 * `-h/--help` with helpText(spec), and turns the errors below into one line and exit code 2.
 *
 * Node's util.parseArgs does the parsing; it throws ERR_PARSE_ARGS_* with a stack for a user's typo, so
 * parseCommand rewords those as a UsageError naming the option.
 */
import { parseArgs } from 'node:util';

export type OptionSpec =
  | { type: 'string'; default?: string; short?: string; /** placeholder in the help, e.g. MS */ value: string; help: string }
  | { type: 'boolean'; short?: string; help: string };

export interface CommandSpec {
  name: string;
  /** What follows `fallow NAME` in the usage lines, e.g. `INSTANCE.json [options]`. */
  synopsis: string[];
  /** One line for `fallow --help`. */
  summary: string;
  options: Record<string, OptionSpec>;
  /** Paragraphs after the option list. */
  notes?: string[];
}

/** A mistake in the command line: exit 2, the message and a pointer to the command's --help. */
export class UsageError extends Error {}

type ValuesOf<O> = {
  [K in keyof O]: O[K] extends { type: 'boolean' } ? boolean : O[K] extends { default: string } ? string : string | undefined;
};

/** The exit codes of every command, printed by each --help and by README.md. */
export const EXIT_CODES = `exit codes:
  0  done (check: the plan is feasible and reports itself truly)
  1  check: the plan is infeasible or misreports itself; or an internal failure
  2  usage error: unknown command or option, bad option value, unreadable or invalid input file`;

export const GLOBAL_OPTIONS = `  -h, --help               this help
  --debug                  on an error, also print its stack trace`;

export function wantsHelp(args: string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((a) => a === '-h' || a === '--help');
}

export function helpText(spec: CommandSpec): string {
  const rows = Object.entries(spec.options).map(([name, o]) => {
    const flag = `${o.short ? `-${o.short}, ` : ''}--${name}${o.type === 'string' ? ` ${o.value}` : ''}`;
    const dflt = o.type === 'string' && o.default !== undefined ? ` (default ${o.default})` : '';
    return `  ${flag.padEnd(24)} ${o.help}${dflt}`;
  });
  return [
    'usage:',
    ...spec.synopsis.map((s) => `  fallow ${spec.name} ${s}`),
    '',
    spec.summary,
    '',
    'options:',
    ...rows,
    GLOBAL_OPTIONS,
    ...(spec.notes?.length ? ['', ...spec.notes] : []),
    '',
    EXIT_CODES,
    '',
  ].join('\n');
}

export function parseCommand<S extends CommandSpec>(spec: S, args: string[]): { values: ValuesOf<S['options']>; positionals: string[] } {
  const options = Object.fromEntries(
    Object.entries(spec.options).map(([name, o]) => {
      const { type, short } = o;
      const dflt = o.type === 'boolean' ? false : o.default;
      return [name, { type, ...(short ? { short } : {}), ...(dflt === undefined ? {} : { default: dflt }) }];
    }),
  );
  try {
    const { values, positionals } = parseArgs({ args, options, allowPositionals: true, strict: true });
    return { values: values as ValuesOf<S['options']>, positionals };
  } catch (e) {
    const code = (e as { code?: string }).code;
    // Only the user's mistakes become a UsageError; a bad option table is a bug and keeps its stack.
    if (code?.startsWith('ERR_PARSE_ARGS_')) throw new UsageError(describeParseError(e as Error & { code?: string }));
    throw e;
  }
}

/** parseArgs' messages name the option in quotes and explain at length; one short sentence instead. */
function describeParseError(e: Error & { code?: string }): string {
  const quoted = /'([^']+)'/.exec(e.message)?.[1]?.replace(/ <value>$/, '');
  if (!quoted) return e.message;
  switch (e.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${quoted}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (/does not take an argument/.test(e.message)) return `option ${quoted} takes no value`;
      if (/ambiguous/.test(e.message)) return `option ${quoted} needs a value (one starting with "-" is written ${quoted}=VALUE)`;
      return `option ${quoted} needs a value`;
    default:
      return e.message;
  }
}
