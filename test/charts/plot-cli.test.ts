/**
 * `fallow plot` end to end on temporary files: the compiled CLI writes a plan's charts as SVG or as Vega-Lite
 * JSON, a simulation report's planned vs realised chart, and exits 2 naming the flag, file or field on bad input.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { loadInstance } from '../../src/engine/model/model';
import { simulatePlan } from '../../src/engine/simulation';
import { at, planOf, withTempDir } from '../support/fixtures';
import { flat, oneJob } from '../support/sim-fixtures';

const CLI = path.resolve(__dirname, '../../src/cli/main.js');

function fallow(...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.error, undefined, `could not run the CLI: ${r.error}`);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const INSTANCE = oneJob([{ id: 'map', tasks: 2, demand: { cpu: 1, ram: 2 }, durationSeconds: 50 }, { id: 'reduce', tasks: 1, after: ['map'], demand: { cpu: 1, ram: 2 }, durationSeconds: 50 }], {
  usage: { a: { cpu: flat(0.25), ram: flat(0.25) } },
});
const PLAN = planOf(INSTANCE, [at('j/map/0@a:0'), at('j/map/1@b:0'), at('j/reduce/0@a:1')]);

describe('fallow plot', () => {
  test('the Gantt as SVG on stdout, the utilisation spec as JSON in a file', async () => {
    await withTempDir((dir, write) => {
      const i = write('i.json', INSTANCE);
      const p = write('p.json', PLAN);
      const svg = fallow('plot', i, p);
      assert.equal(svg.code, 0, svg.stderr);
      assert.match(svg.stdout, /^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      const out = path.join(dir, 'u.json');
      const json = fallow('plot', i, p, '--chart', 'utilisation', '--json', '--out', out);
      assert.equal(json.code, 0, json.stderr);
      assert.equal(json.stdout, '');
      const spec = JSON.parse(readFileSync(out, 'utf8'));
      assert.equal(spec.$schema, 'https://vega.github.io/schema/vega-lite/v6.json');
      assert.deepEqual([...new Set(spec.data.values.map((v: { node: string }) => v.node))], ['a', 'b']);
    });
  });

  test('a simulate report: planned vs realised', async () => {
    await withTempDir((_dir, write) => {
      const report = simulatePlan(loadInstance(INSTANCE), PLAN);
      const r = fallow('plot', write('i.json', INSTANCE), write('p.json', PLAN), '--report', write('r.json', report), '--json');
      assert.equal(r.code, 0, r.stderr);
      const spec = JSON.parse(r.stdout);
      assert.deepEqual(spec.data.values.map((v: { job: string; planned: number }) => [v.job, v.planned]), [['j', 100]]);
    });
  });

  test('bad input exits 2 naming what is wrong', async () => {
    await withTempDir((_dir, write) => {
      const i = write('i.json', INSTANCE);
      const p = write('p.json', PLAN);
      const chart = fallow('plot', i, p, '--chart', 'pie');
      assert.equal(chart.code, 2);
      assert.match(chart.stderr, /--chart must be one of gantt, utilisation, got "pie"/);
      const node = fallow('plot', i, write('bad.json', { ...PLAN, assignments: [at('j/map/0@zz:0')] }));
      assert.equal(node.code, 2);
      assert.match(node.stderr, /assignments\[0\]\.node: the instance has no node "zz"/);
      const notPlan = fallow('plot', i, write('x.json', { hello: 1 }));
      assert.equal(notPlan.code, 2);
      assert.match(notPlan.stderr, /x\.json: assignments must be an array/);
      const missing = fallow('plot', i, '/nonexistent/p.json');
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /cannot read \/nonexistent\/p\.json/);
      assert.equal(fallow('plot', i).code, 2, 'a plan chart needs a plan');
    });
  });
});
