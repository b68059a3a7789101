/**
 * `fallow predict-eval` on traces the test writes itself (a user's clone has no ../shared): an
 * Alibaba-format CSV whose errors are computed by hand, a SWIM-format TSV run through the simulator, and
 * the exit code and message for a file that cannot be read.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, test } from 'node:test';
import { withTempDir } from '../support/fixtures';

const CLI = path.resolve(__dirname, '../../src/cli/main.js');
const fallow = (...args: string[]) => {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

// One job of three tasks created together that end at 10, 20 and 30 s, with 1, 2 and 3 instances: each
// instance takes 10 s. Header names start with spaces, as in the real file; a Waiting task is left out.
const ALIBABA = [
  'task_create_time, task_end_time, job_id, task_id,number_of_instances, status, number_of_cpus_requested_per_instance_in_the_task,normalized_memory_requested_per_instance_in_the_task',
  '0,10,7,1,1,Terminated,50,0.01',
  '0,20,7,2,2,Terminated,50,0.01',
  '0,30,7,3,3,Terminated,50,0.01',
  '0,40,7,4,9,Waiting,,',
].join('\n');

/** 30 SWIM-format jobs: id, submit, gap, input, shuffle, output bytes. */
const SWIM = Array.from({ length: 30 }, (_, j) => [`job${j}`, 10 * j, 10, (1 + (j % 5)) * 300e6, (j % 3) * 200e6, 1e6].join('\t')).join('\n');

describe('fallow predict-eval', () => {
  test('Alibaba format: by hand, basic misses by 50% and standard (seconds per instance) not at all', async () => {
    await withTempDir((_dir, write) => {
      const r = fallow('predict-eval', '--alibaba', write('batch_task.csv', ALIBABA), '--json');
      assert.equal(r.code, 0, r.stderr);
      const out = JSON.parse(r.stdout);
      // Ended before it: the 20-s task from the 10-s one (basic 10, 50% off), the 30-s one from both (15, 50% off).
      const acc = out.alibaba.accuracy;
      assert.equal(out.alibaba.tasks, 3);
      assert.deepEqual([acc.basic.all.n, acc.basic.all.medianApe, acc.basic.all.p90Ape], [2, 50, 50]);
      assert.deepEqual([acc.standard.all.n, acc.standard.all.medianApe], [2, 0]);
      assert.equal(acc['global-mean'].all.medianApe, 50);
      for (const p of ['global-mean', 'basic', 'standard']) assert.ok('medianApe' in acc[p].all && 'p90Ape' in acc[p].all);
      // Rest of the job: the 10-s task from the others (basic 25 -> 150% off; standard 50 s / 5 instances -> 0%).
      assert.equal(out.alibabaRestOfJob.accuracy.standard.all.medianApe, 0);
    });
  });

  test('SWIM format through the simulator: every predictor scores most tasks; a missing file is exit 2', async () => {
    await withTempDir((_dir, write) => {
      const r = fallow('predict-eval', '--swim', write('fb.tsv', SWIM), '--jobs', '30', '--json');
      assert.equal(r.code, 0, r.stderr);
      const swim = JSON.parse(r.stdout).swim;
      assert.equal(swim.jobs, 30);
      for (const p of ['global-mean', 'basic', 'standard', 'detailed']) {
        assert.ok(swim.accuracy[p].all.n > swim.tasks / 2, `${p} scored ${swim.accuracy[p].all.n} of ${swim.tasks}`);
        assert.ok(Number.isFinite(swim.accuracy[p].all.medianApe));
      }
      const missing = fallow('predict-eval', '--swim', write('x', '') + '.nope');
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /cannot read/);
      assert.equal(fallow('predict-eval', '--jobs', '0', '--swim', 'x').code, 2);
    });
  });
});
