/**
 * examples/ (issue 26): each file is what examples/generate.ts makes and is valid for the command that uses
 * it, the "Offline" commands of examples/README.md run as written, and README.md's curl block is
 * examples/walkthrough.sh (which test/service/walkthrough.test.ts runs against the service).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { evaluatePlan } from '../../src/engine/evaluate/evaluate';
import { parseHistoryCsv } from '../../src/engine/forecast';
import { loadInstance } from '../../src/engine/model/model';
import { validateActualUsage } from '../../src/engine/simulation';
import { generatedExamples } from '../../examples/generate';
import { withTempDir } from '../support/fixtures';

const ROOT = path.resolve(__dirname, '../../..');
const EXAMPLES = path.join(ROOT, 'examples');
const CLI = path.join(ROOT, 'dist', 'src', 'cli', 'main.js');
const read = (name: string) => readFileSync(path.join(EXAMPLES, name), 'utf8');
const readJson = (name: string) => JSON.parse(read(name)) as never;

/** The body of the first ```sh block after `heading` in a Markdown text. */
function shBlock(markdown: string, heading: string): string {
  const block = new RegExp(`${heading}[^]*?\`\`\`sh\\n([^]*?)\`\`\``).exec(markdown)?.[1];
  assert.ok(block, `no sh block under "${heading}"`);
  return block;
}

describe('examples/', () => {
  test('the generated files are what examples/generate.ts makes (npm run examples)', () => {
    for (const [name, text] of Object.entries(generatedExamples())) assert.ok(read(name) === text, `examples/${name} is stale: run npm run examples`);
  });

  test('the instances are valid; the large one is big (several thousand tasks) yet under 2 MB', () => {
    const small = loadInstance(readJson('instance-small.json'));
    const large = loadInstance(readJson('instance-large.json'));
    assert.ok(small.nTasks > 20 && small.nTasks < 200, `small: ${small.nTasks} tasks`);
    assert.ok(large.nTasks >= 3000, `large: ${large.nTasks} tasks`);
    assert.ok(statSync(path.join(EXAMPLES, 'instance-large.json')).size < 2 * 1024 * 1024);
  });

  test("the usage history parses with fallow forecast's reader: 3 days of the small instance's nodes", () => {
    const history = parseHistoryCsv(read('usage-history.csv'));
    const small = readJson('instance-small.json') as { nodes: { id: string }[] };
    assert.deepEqual(Object.keys(history).sort(), small.nodes.map((n) => n.id).sort());
    for (const metrics of Object.values(history))
      for (const s of Object.values(metrics)) assert.equal(s.t[s.t.length - 1] - s.t[0], 3 * 86400 - 300);
  });

  test('the actual usage validates against the small instance and differs from its forecast', () => {
    const small = readJson('instance-small.json') as { usage: unknown };
    const actual = validateActualUsage(small as never, readJson('actual-usage.json'));
    assert.notDeepEqual(actual, small.usage);
  });

  test('the walk-through bodies exist and README.md shows examples/walkthrough.sh verbatim', () => {
    for (const name of ['cluster.json', 'forecast.json', 'batch.json', 'solve.json']) assert.doesNotThrow(() => readJson(name), name);
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    assert.equal(shBlock(readme, '## A full solve with curl'), read('walkthrough.sh'));
    const bodies = [...read('walkthrough.sh').matchAll(/\$EX\/([\w.-]+)/g)].map((m) => m[1]);
    assert.deepEqual(bodies, ['cluster.json', 'forecast.json', 'batch.json', 'solve.json']);
  });

  test('the Offline commands of examples/README.md run as written and the plan checks feasible', async () => {
    const block = shBlock(read('README.md'), '## Offline');
    assert.match(block, /^fallow solve /m);
    await withTempDir(async (dir) => {
      symlinkSync(EXAMPLES, path.join(dir, 'examples'));
      // `fallow` as `npm link` would make it: this checkout's CLI.
      const script = `set -euo pipefail\nfallow() { "${process.execPath}" "${CLI}" "$@"; }\n${block}`;
      const r = spawnSync('bash', ['-c', script], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /^FEASIBLE scheduledTasks=(\d+)\/\1 /m);
      for (const out of ['plan.json', 'report.json', 'lost-report.json', 'replanned.json', 'forecast-usage.json', 'hadoop-report.json']) assert.ok(existsSync(path.join(dir, out)), out);
      const plan = JSON.parse(readFileSync(path.join(dir, 'plan.json'), 'utf8'));
      assert.ok(evaluatePlan(loadInstance(readJson('instance-small.json')), plan).ok);
      const report = JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8')) as { jobs: unknown[]; makespanSeconds: number };
      assert.equal(report.jobs.length, 4);
      assert.ok(report.makespanSeconds > 0);
      const lost = JSON.parse(readFileSync(path.join(dir, 'lost-report.json'), 'utf8')) as { unfinishedJobs: number; relaunches: number };
      assert.equal(lost.unfinishedJobs, 0);
      const replanned = JSON.parse(readFileSync(path.join(dir, 'replanned.json'), 'utf8')) as { unfinishedJobs: number; replan: { replans: { trigger: string; outcome: string }[] } };
      assert.equal(replanned.unfinishedJobs, 0);
      const triggers = replanned.replan.replans.map((r) => r.trigger);
      assert.ok(triggers.includes('node-lost') && triggers.includes('node-back'), triggers.join(','));
      for (const r of replanned.replan.replans) assert.equal(r.outcome, 'adopted');
    });
  });
});
