/**
 * A benchmark with nothing to run exits non-zero and says why (issue 26: `npm run bench` in a clone
 * without ../shared printed a note and exited 0). Runs the compiled entry points with the shared
 * directory pointed at an empty or missing one.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, test } from 'node:test';
import { withTempDir } from '../support/fixtures';

const BENCH = path.resolve(__dirname, '../../bench');

function bench(entry: string, args: string[], shared: string) {
  const r = spawnSync(process.execPath, [path.join(BENCH, entry), ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, FALLOW_SHARED: shared },
  });
  assert.equal(r.error, undefined, `could not run ${entry}: ${r.error}`);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('benchmarks with nothing to run', () => {
  test('npm run bench without the shared directory exits 1 naming it', async () => {
    await withTempDir(async (dir) => {
      const missing = path.join(dir, 'no-shared');
      const r = bench('run.js', ['--no-report'], missing);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, new RegExp(`^fallow bench: nothing to run: the shared directory ${missing.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is absent`, 'm'));
      assert.equal(r.stdout, '');
    });
  });

  test('npm run bench where no instance matches exits 1 listing what it skipped', async () => {
    await withTempDir(async (dir) => {
      // The directory exists but holds no instances/, so the shared suite skips everything.
      const r = bench('run.js', ['--suite', 'shared', '--no-report', '--cache', path.join(dir, 'cache')], dir);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /^fallow bench: nothing to run: no instance of shared matched \(skipped: shared: .*instances not found\)$/m);
    });
  });

  test('the other benchmark entries exit 1 without the shared data', async () => {
    await withTempDir(async (dir) => {
      const missing = path.join(dir, 'no-shared');
      for (const [entry, args, name] of [
        ['revenue.js', ['--sets', 'gen'], 'bench:revenue'],
        ['simulate.js', [], 'bench:simulate'],
        ['forecast.js', [], 'bench:forecast'],
        ['predict.js', [], 'bench:predict'],
        ['posum.js', [], 'bench:posum'],
      ] as const) {
        const r = bench(entry, [...args], missing);
        assert.equal(r.code, 1, `${entry}: ${r.stdout}${r.stderr}`);
        assert.match(r.stderr, new RegExp(`^${name}: nothing to run: `, 'm'), entry);
      }
    });
  });
});
