/** `fallow forecast` end to end: a temporary history CSV in, `usage`-shaped JSON out; bad CSV exits 2. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, test } from 'node:test';
import { historyToCsv } from '../../src/engine/forecast';
import { withTempDir } from '../support/fixtures';
import { syntheticHistory } from '../../harness/usage-traces';

/** This file compiles to <out>/test/engine/forecast-cli.test.js; the CLI to <out>/src/cli/main.js. */
const CLI = path.resolve(__dirname, '../../src/cli/main.js');

function fallow(...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.error, undefined, `could not run the CLI: ${r.error}`);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('fallow forecast', () => {
  const csv = historyToCsv(syntheticHistory({ nodes: 3, days: 3, seed: 5 }));

  test('prints {node: {metric: [fraction per slot]}} for the slots after the history', async () => {
    await withTempDir(async (_dir, write) => {
      const file = write('history.csv', csv);
      for (const model of ['gbt', 'slot-quantile']) {
        const r = fallow('forecast', file, '--quantile', '0.9', '--horizon-slots', '120', '--slot-seconds', '180', '--model', model);
        assert.equal(r.code, 0, r.stderr);
        const usage = JSON.parse(r.stdout) as Record<string, Record<string, number[]>>;
        assert.deepEqual(Object.keys(usage).sort(), ['n001', 'n002', 'n003']);
        for (const metrics of Object.values(usage)) {
          assert.deepEqual(Object.keys(metrics).sort(), ['cpu', 'ram']);
          for (const xs of Object.values(metrics)) {
            assert.equal(xs.length, 120);
            assert.ok(xs.every((x) => x >= 0 && x <= 1));
          }
        }
      }
    });
  });

  test('--headroom raises the forecast of the metrics it names; a bad one exits 2 naming it', async () => {
    await withTempDir(async (_dir, write) => {
      const file = write('history.csv', csv);
      const run = (...extra: string[]) => {
        const r = fallow('forecast', file, '--quantile', '0.9', '--horizon-slots', '60', '--slot-seconds', '300', ...extra);
        assert.equal(r.code, 0, r.stderr);
        return JSON.parse(r.stdout) as Record<string, Record<string, number[]>>;
      };
      const plain = run();
      const raised = run('--headroom', 'cpu=0.1');
      let higher = 0;
      for (const node of Object.keys(plain)) {
        assert.deepEqual(raised[node].ram, plain[node].ram);
        plain[node].cpu.forEach((f, i) => {
          assert.ok(raised[node].cpu[i] >= f && raised[node].cpu[i] <= f + 0.1 + 1e-4);
          if (raised[node].cpu[i] > f) higher++;
        });
      }
      assert.ok(higher > 0);
      for (const [arg, pattern] of [
        ['cpu=2', /--headroom cpu must be a fraction of capacity in \[0, 1\], got "2"/],
        ['ram', /--headroom must be a fraction of capacity/],
        ['cpu=0.1=0.2', /--headroom: expected METRIC=FRACTION, got "cpu=0.1=0.2"/],
      ] as const) {
        const r = fallow('forecast', file, '--headroom', arg);
        assert.equal(r.code, 2);
        assert.match(r.stderr, pattern);
      }
      const b = fallow('forecast', file, '--model', 'max', '--headroom', '0.1');
      assert.equal(b.code, 2);
      assert.match(b.stderr, /--headroom applies to --model gbt only/);
    });
  });

  test('a bad CSV exits 2 naming the line; a bad option exits 2', async () => {
    await withTempDir(async (_dir, write) => {
      const bad = write('bad.csv', 'timestamp,node,metric,value\n0,h1,cpu,0.5\n300,h1,cpu,150\n');
      const r = fallow('forecast', bad);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /line 3: value 150 is outside \[0, 1\]/);
      const o = fallow('forecast', write('ok.csv', csv), '--quantile', '99');
      assert.equal(o.code, 2);
      assert.match(o.stderr, /--quantile must be a number strictly between 0 and 1/);
    });
  });
});
