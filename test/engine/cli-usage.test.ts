/**
 * Issue 26's measured defects of the command line, each asserted on the compiled CLI (dist/src/cli/main.js):
 * --help on every command (exit 0, usage on stdout, every option with its default), -h, `help CMD`,
 * --version, no command at all (exit 2, usage on stderr), unknown commands and options named with a
 * pointer to --help and no stack trace, --debug showing the stack, and `fallow bench` exiting 2.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { CommandSpec, UsageError } from '../../src/cli/args';
import { describeError } from '../../src/cli/errors';
import { FORECAST, FORECAST_EVAL } from '../../src/cli/forecast';
import { PREDICT_EVAL } from '../../src/cli/predict-eval';
import { SIMULATE } from '../../src/cli/simulate';
import { CHECK, SOLVE } from '../../src/cli/solve';

const CLI = path.resolve(__dirname, '../../src/cli/main.js');
const PACKAGE = path.resolve(__dirname, '../../../package.json');
const SPECS: CommandSpec[] = [SOLVE, CHECK, FORECAST, FORECAST_EVAL, SIMULATE, PREDICT_EVAL];
const COMMANDS = [...SPECS.map((s) => s.name), 'bench'];
/** A line of a Node stack trace. */
const STACK = /^\s+at .*\(.*:\d+:\d+\)$/m;

function fallow(...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 20_000 });
  assert.equal(r.error, undefined, `could not run the CLI: ${r.error}`);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('fallow CLI usage', () => {
  test('every command answers --help and -h with its usage on stdout, exit 0', () => {
    for (const name of COMMANDS)
      for (const flag of ['--help', '-h']) {
        const r = fallow(name, flag);
        assert.equal(r.code, 0, `${name} ${flag}: ${r.stderr}`);
        assert.equal(r.stderr, '', `${name} ${flag}`);
        assert.match(r.stdout, new RegExp(`^usage:\\n {2}fallow ${name} `), `${name} ${flag}`);
        assert.match(r.stdout, /^exit codes:\n {2}0 .*\n {2}1 .*\n {2}2 /m, `${name} ${flag} documents the exit codes`);
      }
  });

  test("--help lists each of a command's options with its default, even after other arguments", () => {
    for (const spec of SPECS) {
      const r = fallow(spec.name, 'some-file.json', '--help');
      assert.equal(r.code, 0, spec.name);
      for (const [option, o] of Object.entries(spec.options)) {
        const line = r.stdout.split('\n').find((l) => l.trimStart().startsWith(`--${option}`) || l.includes(`, --${option}`));
        assert.ok(line, `${spec.name} --help lacks --${option}`);
        if (o.type === 'string' && o.default !== undefined) assert.ok(line.endsWith(`(default ${o.default})`), `${spec.name} --${option}: ${line}`);
      }
    }
    assert.equal(fallow('help', 'solve').stdout, fallow('solve', '--help').stdout);
  });

  test('fallow --help, -h and help print the overview on stdout naming every command; no command is exit 2 on stderr', () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const r = fallow(...args);
      assert.equal(r.code, 0, args.join(' '));
      assert.match(r.stdout, /^usage: fallow COMMAND/);
      for (const name of COMMANDS) assert.match(r.stdout, new RegExp(`^ {2}${name} `, 'm'), `${args} lists ${name}`);
      assert.match(r.stdout, /^ {2}-V, --version/m);
      assert.match(r.stdout, /^exit codes:/m);
    }
    const none = fallow();
    assert.equal(none.code, 2);
    assert.equal(none.stdout, '');
    assert.match(none.stderr, /^usage: fallow COMMAND/);
  });

  test('--version and -V print the package version', () => {
    const { version } = JSON.parse(readFileSync(PACKAGE, 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const r = fallow(flag);
      assert.equal(r.code, 0);
      assert.equal(r.stdout, `${version}\n`);
    }
  });

  test('an unknown command or option is named with a pointer to --help, exit 2, no stack trace', () => {
    let r = fallow('frobnicate');
    assert.deepEqual(r, { code: 2, stdout: '', stderr: "fallow: unknown command 'frobnicate' (see fallow --help)\n" });
    r = fallow('--frobnicate');
    assert.deepEqual(r, { code: 2, stdout: '', stderr: 'fallow: unknown option --frobnicate (see fallow --help)\n' });
    r = fallow('help', 'frobnicate');
    assert.equal(r.code, 2);
    for (const name of SPECS.map((s) => s.name)) {
      r = fallow(name, 'x.json', '--frobnicate');
      assert.deepEqual(r, { code: 2, stdout: '', stderr: `fallow ${name}: unknown option --frobnicate (see fallow ${name} --help)\n` });
    }
    r = fallow('solve', 'x.json', '--budget-ms');
    assert.deepEqual(r, { code: 2, stdout: '', stderr: 'fallow solve: option --budget-ms needs a value (see fallow solve --help)\n' });
    r = fallow('check', 'a.json', 'b.json', '--json=yes');
    assert.deepEqual(r, { code: 2, stdout: '', stderr: 'fallow check: option --json takes no value (see fallow check --help)\n' });
  });

  test('a missing file is one line without a stack trace; --debug (anywhere) adds the stack', () => {
    const plain = fallow('solve', 'no-such-instance.json');
    assert.equal(plain.code, 2);
    assert.match(plain.stderr, /^fallow solve: cannot read no-such-instance\.json: ENOENT[^\n]*\n$/);
    assert.doesNotMatch(plain.stderr, STACK);
    for (const args of [['--debug', 'solve', 'no-such-instance.json'], ['solve', 'no-such-instance.json', '--debug']]) {
      const debug = fallow(...args);
      assert.equal(debug.code, 2, args.join(' '));
      assert.ok(debug.stderr.startsWith(plain.stderr), debug.stderr);
      assert.match(debug.stderr, STACK);
    }
  });

  test('fallow bench points at npm run bench, exit 2', () => {
    const r = fallow('bench');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^fallow bench: the benchmark is not part of the CLI; run it from the repository with `npm run bench -- \.\.\.`/);
    assert.doesNotMatch(r.stderr, STACK);
  });

  test("Fallow's own failure is exit 1 saying so, with a pointer to --debug; a user's mistake is 2", () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'nodes')");
    const plain = describeError('solve', bug, false);
    assert.deepEqual(plain, { code: 1, text: "fallow solve: internal error: Cannot read properties of undefined (reading 'nodes') (--debug prints the stack trace)\n" });
    const debug = describeError('solve', bug, true);
    assert.equal(debug.code, 1);
    assert.ok(debug.text.endsWith(`${bug.stack}\n`));
    assert.deepEqual(describeError('check', new UsageError('check needs INSTANCE.json and PLAN.json'), false), {
      code: 2,
      text: 'fallow check: check needs INSTANCE.json and PLAN.json (see fallow check --help)\n',
    });
  });
});
