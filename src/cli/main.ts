#!/usr/bin/env node
/**
 * The offline command line (no database or Redis): `fallow COMMAND [options]`, `fallow COMMAND --help`.
 * Each command lives in its own file as a CommandSpec and a run function; adding one is one entry in
 * COMMANDS. This file only routes, prints help and the version, and turns errors into exit codes
 * (args.ts EXIT_CODES): a user's mistake is one line on stderr, a stack only with --debug.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CommandSpec, EXIT_CODES, GLOBAL_OPTIONS, helpText, UsageError, wantsHelp } from './args';
import { describeError } from './errors';
import { FORECAST, FORECAST_EVAL, forecastCommand, forecastEvalCommand } from './forecast';
import { PLOT, plotCommand } from './plot';
import { PREDICT_EVAL, predictEvalCommand } from './predict-eval';
import { SIMULATE, simulateCommand } from './simulate';
import { CHECK, checkCommand, SOLVE, solveCommand } from './solve';

interface Command {
  spec: CommandSpec;
  run: (args: string[]) => number | Promise<number>;
}

const BENCH: CommandSpec = {
  name: 'bench',
  synopsis: ['(not part of the CLI)'],
  summary: 'The benchmark runs from a checkout of the repository: `npm run bench -- --help` (see bench/README.md).',
  options: {},
};

const COMMANDS: Command[] = [
  { spec: SOLVE, run: solveCommand },
  { spec: CHECK, run: checkCommand },
  { spec: FORECAST, run: forecastCommand },
  { spec: FORECAST_EVAL, run: forecastEvalCommand },
  { spec: SIMULATE, run: simulateCommand },
  { spec: PREDICT_EVAL, run: predictEvalCommand },
  { spec: PLOT, run: plotCommand },
  // The benchmark is its own entry point (bench/run.ts): src/ never imports bench/.
  {
    spec: BENCH,
    run: () => {
      throw new UsageError('the benchmark is not part of the CLI; run it from the repository with `npm run bench -- ...`');
    },
  },
];

function overallHelp(): string {
  return [
    'usage: fallow COMMAND [options]      (fallow COMMAND --help for its options)',
    '',
    'commands:',
    ...COMMANDS.map((c) => `  ${c.spec.name.padEnd(14)} ${c.spec.summary}`),
    '',
    'options:',
    GLOBAL_OPTIONS,
    '  -V, --version            print the version',
    '',
    'Formats: docs/FORMAT.md in the repository. Run from the checkout with `node dist/src/cli/main.js`, or put',
    '`fallow` on your PATH with `npm link` there (never through npx: the registry has an unrelated "fallow").',
    '',
    EXIT_CODES,
    '',
  ].join('\n');
}

function version(): string {
  // dist/src/cli/main.js -> the package.json of this checkout (or of the installed package).
  return (JSON.parse(readFileSync(path.resolve(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
}

async function main(argv: string[], debug: boolean): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    // No command at all is a usage error: the overview goes to stderr so a pipe sees nothing.
    process.stderr.write(overallHelp());
    return 2;
  }
  if (first === '-h' || first === '--help') return process.stdout.write(overallHelp()), 0;
  if (first === '-V' || first === '--version') return process.stdout.write(version() + '\n'), 0;
  const [name, args] = first === 'help' ? [rest[0], ['--help']] : [first, rest];
  if (name === undefined) return process.stdout.write(overallHelp()), 0;
  const command = COMMANDS.find((c) => c.spec.name === name);
  if (!command) {
    const what = name.startsWith('-') ? `unknown option ${name}` : `unknown command '${name}'`;
    process.stderr.write(`fallow: ${what} (see fallow --help)\n`);
    return 2;
  }
  if (wantsHelp(args)) return process.stdout.write(helpText(command.spec)), 0;
  try {
    return await command.run(args);
  } catch (e) {
    const { code, text } = describeError(name, e, debug);
    process.stderr.write(text);
    return code;
  }
}

/**
 * process.exit() drops whatever a pipe has not taken yet (a plan piped into `jq` was cut at 128 KiB), so
 * exit only once stdout and stderr have flushed everything written before.
 */
function exitAfterFlush(code: number): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

// --debug is global and may stand anywhere before a `--`.
const argv = process.argv.slice(2);
const end = argv.indexOf('--');
const debugAt = argv.findIndex((a, i) => a === '--debug' && (end < 0 || i < end));
if (debugAt >= 0) argv.splice(debugAt, 1);
main(argv, debugAt >= 0).then(exitAfterFlush, (e) => {
  process.stderr.write(`fallow: internal error: ${(e as Error)?.stack ?? e}\n`);
  exitAfterFlush(1);
});
