/**
 * The benchmarks' command lines, one way for all: an entry describes its options once (kind, default, help line)
 * and gets util.parseArgs with them, its --help text, and typed values. Numbers are checked here, with an error
 * naming the option, so an entry never runs an experiment on a NaN (`--seeds x` used to become 0 seeds).
 *
 *   const COMMAND = command({ name: 'bench:predict', usage: 'usage: npm run bench:predict -- [options]', options: {
 *     seeds: { kind: 'integer', default: 5, arg: 'N', help: 'seeds per SWIM trace (default 5)' } } });
 *   runEntry(COMMAND, async ({ values }) => { ... values.seeds is a number ... });
 */
import { parseArgs } from 'node:util';

interface OptionBase {
  /** Its line of --help ("\n" continues it under itself); omitted: the option is not listed. */
  help?: string;
  /** What follows the option's name in --help: `--seeds N`. */
  arg?: string;
}
/** Text, as given. */
export interface StringOption extends OptionBase {
  kind: 'string';
  default?: string;
}
/** Repeatable text (`--note A --note B`): every value, in order; [] when absent. */
export interface StringsOption extends OptionBase {
  kind: 'strings';
}
/** Present or not: false when absent. */
export interface FlagOption extends OptionBase {
  kind: 'flag';
}
/** A whole number >= min (default 0). */
export interface IntegerOption extends OptionBase {
  kind: 'integer';
  default?: number;
  min?: number;
}
/** A finite number >= min (or > above). */
export interface NumberOption extends OptionBase {
  kind: 'number';
  default?: number;
  min?: number;
  above?: number;
}
export type OptionSpec = StringOption | StringsOption | FlagOption | IntegerOption | NumberOption;
export type OptionSpecs = Record<string, OptionSpec>;

type ValueOf<O extends OptionSpec> = O extends FlagOption
  ? boolean
  : O extends StringsOption
    ? string[]
    : O extends IntegerOption | NumberOption
      ? O extends { default: number }
        ? number
        : number | undefined
      : O extends { default: string }
        ? string
        : string | undefined;

/** The parsed values, typed from the spec: an option with a default is never undefined. */
export type Values<S extends OptionSpecs> = { [K in keyof S]: ValueOf<S[K]> };

export interface Command<S extends OptionSpecs> {
  /** How messages start: `fallow bench`, `bench:posum`. */
  name: string;
  /** The first line(s) of --help: `usage: npm run bench:posum -- [options]`. */
  usage: string;
  options: S;
  /** Positional arguments are accepted (their meaning belongs in `usage`). */
  positionals?: boolean;
  /** Text after the option list (environment, notes). */
  epilog?: string;
  /** Column where the help lines start (default: 3 spaces after the longest `--name ARG`). */
  helpColumn?: number;
}

/** A command line the entry cannot run: printed with the --help text, exit code 2. */
export class UsageError extends Error {}

/** Describes a command; `const` keeps each default's literal type, so a defaulted option is typed as set. */
export function command<const S extends OptionSpecs>(c: Command<S>): Command<S> {
  return c;
}

export function helpText(c: Command<OptionSpecs>): string {
  const listed = Object.entries(c.options).filter(([, o]) => o.help !== undefined);
  const left = (name: string, o: OptionSpec) => `  --${name}${o.arg ? ` ${o.arg}` : ''}`;
  const column = c.helpColumn ?? Math.max(0, ...listed.map(([n, o]) => left(n, o).length)) + 3;
  const lines = listed.map(([name, o]) => {
    const [first, ...more] = o.help!.split('\n');
    return [left(name, o).padEnd(column) + first, ...more.map((m) => ' '.repeat(column) + m)].join('\n');
  });
  return [c.usage, '', ...lines, '  --help', ...(c.epilog ? ['', c.epilog] : [])].join('\n');
}

function checkedNumber(name: string, raw: string, o: IntegerOption | NumberOption): number {
  const n = Number(raw);
  const min = o.min ?? (o.kind === 'integer' ? 0 : undefined);
  const above = o.kind === 'number' ? o.above : undefined;
  const ok = raw.trim() !== '' && (o.kind === 'integer' ? Number.isInteger(n) : Number.isFinite(n)) && (min === undefined || n >= min) && (above === undefined || n > above);
  if (ok) return n;
  const what = o.kind === 'integer' ? (min === 0 ? 'a non-negative integer' : min === 1 ? 'a positive integer' : `an integer >= ${min}`) : 'a number';
  const bound = o.kind === 'number' ? (above !== undefined ? ` > ${above}` : min !== undefined ? ` >= ${min}` : '') : '';
  throw new UsageError(`--${name} must be ${what}${bound}, got "${raw}"`);
}

/** util.parseArgs on the spec, then the numbers checked; a bad command line throws UsageError. */
export function parseCommand<S extends OptionSpecs>(c: Command<S>, argv: string[]): { values: Values<S>; positionals: string[]; help: boolean } {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = { help: { type: 'boolean' } };
  for (const [name, o] of Object.entries(c.options)) options[name] = o.kind === 'flag' ? { type: 'boolean' } : { type: 'string', ...(o.kind === 'strings' ? { multiple: true } : {}) };
  let parsed: { values: Record<string, string | boolean | string[] | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: c.positionals === true, strict: true }) as typeof parsed;
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const values: Record<string, unknown> = {};
  for (const [name, o] of Object.entries(c.options)) {
    const raw = parsed.values[name];
    if (o.kind === 'flag') values[name] = raw === true;
    else if (o.kind === 'strings') values[name] = (raw as string[] | undefined) ?? [];
    else if (o.kind === 'string') values[name] = (raw as string | undefined) ?? o.default;
    else values[name] = raw === undefined ? o.default : checkedNumber(name, raw as string, o);
  }
  return { values: values as Values<S>, positionals: parsed.positionals, help: parsed.values.help === true };
}

/**
 * A benchmark that finds nothing to run must not pass for one that ran (issue 26: `npm run bench` in a
 * clone without ../shared exited 0): say why on stderr and answer exit code 1.
 */
export function nothingToRun(entry: string, why: string): number {
  process.stderr.write(`${entry}: nothing to run: ${why}\n`);
  return 1;
}

export interface EntryArgs<S extends OptionSpecs> {
  values: Values<S>;
  positionals: string[];
  /** The arguments as given (for a results file's record of the command). */
  argv: string[];
}

/**
 * Runs an entry's main on this process's arguments: --help prints the help text; a bad command line prints
 * the error and the help text on stderr (exit 2); main's number (or 0) is the exit code; a throw prints its
 * stack (exit 1). Only when the file is the program itself (`require.main === module` of the caller).
 */
export function runEntry<S extends OptionSpecs>(c: Command<S>, main: (args: EntryArgs<S>) => Promise<number | void> | number | void, argv = process.argv.slice(2)): void {
  let parsed: ReturnType<typeof parseCommand<S>>;
  try {
    parsed = parseCommand(c, argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`${c.name}: ${e.message}\n${helpText(c)}\n`);
    process.exitCode = 2;
    return;
  }
  if (parsed.help) {
    process.stdout.write(helpText(c) + '\n');
    return;
  }
  Promise.resolve()
    .then(() => main({ values: parsed.values, positionals: parsed.positionals, argv }))
    .then(
      (code) => process.exit(code ?? 0),
      (e) => {
        if (e instanceof UsageError) {
          process.stderr.write(`${c.name}: ${e.message}\n${helpText(c)}\n`);
          process.exit(2);
        }
        process.stderr.write(`${c.name}: ${(e as Error).stack ?? e}\n`);
        process.exit(1);
      },
    );
}
