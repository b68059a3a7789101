/**
 * `fallow solve` on a pipe: plain progress lines (elapsed of the budget, phase, best so far, bound) while it
 * searches, also when nothing improves; Ctrl-C (SIGINT) stops the search and still prints the best plan.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, test } from 'node:test';
import { evaluatePlan } from '../../src/engine/evaluate/evaluate';
import { loadInstance } from '../../src/engine/model/model';
import { readFileSync } from 'node:fs';
import { ProgressLine } from '../../src/cli/progress';

const CLI = path.resolve(__dirname, '../../src/cli/main.js');
const LARGE = path.resolve(__dirname, '../../../examples/instance-large.json');
const LINE = /^solve ls (\d+\.\d)\/3\.0 s {2}(starting|(searching|finishing|done) {2}(best \d+ tasks, makespan \d+|nothing placed yet)( {2}bound \d+)?( {2}gap \d+\.\d%)? {2}iterations \d+)$/;

describe('fallow solve progress', () => {
  test('prints a progress line at least every second on a pipe, the clock moving', () => {
    const r = spawnSync(process.execPath, [CLI, 'solve', LARGE, '--strategy', 'ls', '--budget-ms', '3000'], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stderr.trim().split('\n');
    const progress = lines.slice(0, -1);
    assert.match(lines.at(-1)!, /^scheduled \d+\/\d+ tasks/);
    assert.ok(progress.length >= 2, r.stderr);
    for (const l of progress) assert.match(l, LINE);
    const clock = progress.map((l) => Number(LINE.exec(l)![1]));
    for (let i = 1; i < clock.length; i++) assert.ok(clock[i] > clock[i - 1], clock.join(' '));
    const plan = JSON.parse(r.stdout);
    assert.ok(evaluatePlan(loadInstance(JSON.parse(readFileSync(LARGE, 'utf8'))), plan).ok);
  });

  test('Ctrl-C stops the search and prints the best plan so far', async () => {
    const child = spawn(process.execPath, [CLI, 'solve', LARGE, '--strategy', 'ls', '--budget-ms', '60000'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    const started = Date.now();
    child.stderr.on('data', (d) => {
      stderr += d;
      if (/best \d+ tasks/.test(stderr) && !child.killed) child.kill('SIGINT');
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 0, stderr);
    assert.ok(Date.now() - started < 50_000, 'stopped well before its 60-s budget');
    const plan = JSON.parse(stdout);
    assert.ok(evaluatePlan(loadInstance(JSON.parse(readFileSync(LARGE, 'utf8'))), plan).ok);
  });

  test('a command without a budget (simulate, forecast) shows its elapsed time; a pipe gets whole lines, a terminal one redrawn line', () => {
    const written: string[] = [];
    const pipe = { isTTY: false, write: (t: string) => written.push(t) } as unknown as NodeJS.WriteStream;
    const line = new ProgressLine(pipe, 'simulate');
    line.tick();
    line.tick(); // within the second: nothing more on a pipe
    line.done();
    assert.equal(written.length, 1);
    assert.match(written[0], /^simulate \d+\.\d s {2}running\n$/);
    const drawn: string[] = [];
    const tty = { isTTY: true, columns: 200, write: (t: string) => drawn.push(t) } as unknown as NodeJS.WriteStream;
    const bar = new ProgressLine(tty, 'solve ls', 4000);
    bar.update({ strategy: 'ls', elapsedMs: 1000, iterations: 7, scheduledTasks: 10, makespanSlots: 5, phase: 'searching', boundSlots: 4, gap: 0.25 });
    bar.tick();
    bar.tick();
    bar.done();
    assert.equal(drawn.length, 3);
    assert.match(drawn[0], /^\rsolve ls \[#*-*\] \d+\.\d\/4\.0 s {2}searching {2}best 10 tasks, makespan 5 {2}bound 4 {2}gap 25\.0%/);
    assert.equal(drawn[0].length, 200); // \r and the line padded to the width - 1
    assert.equal(drawn[2], '\n');
  });
});
