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

const CLI = path.resolve(__dirname, '../../src/cli.js');
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
});
