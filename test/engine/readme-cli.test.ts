/**
 * README.md's offline CLI blocks ("Solve a problem offline" and the `fallow plot` block under "Charts") run with
 * bash as written, read from README.md at test time. Their placeholders are files the user has: the working
 * directory holds INSTANCE.json (examples/instance-small.json), HISTORY.csv (examples/usage-history.csv),
 * TRACES_DIR/ (that history) and, for the plot block, report.json (what `fallow simulate` printed), and
 * `fallow` is this checkout's CLI as `npm link` makes it.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { evaluatePlan } from '../../src/engine/evaluate/evaluate';
import { loadInstance } from '../../src/engine/model/model';
import { withTempDir } from '../support/fixtures';
import { readme, ROOT, shBlocksUnder } from '../support/readme-blocks';

const run = promisify(execFile);
const CLI = path.join(ROOT, 'dist', 'src', 'cli', 'main.js');
const EXAMPLES = path.join(ROOT, 'examples');

async function runBlock(block: string, cwd: string): Promise<string> {
  const script = `set -euo pipefail\nfallow() { "${process.execPath}" "${CLI}" "$@"; }\n${block}`;
  const r = await run('bash', ['-c', script], { cwd, timeout: 180_000, maxBuffer: 64 * 1024 * 1024 }).catch(
    (e: { code: number; stdout: string; stderr: string }) => assert.fail(`the block exited ${e.code}:\n${block}\n${e.stderr}`),
  );
  return r.stdout;
}

describe("README.md's offline CLI blocks, as written", () => {
  test('solve, check, forecast, forecast-eval and simulate on the example files, then plot the plan and the report', async () => {
    const [solveBlock] = shBlocksUnder(readme(), '## Solve a problem offline').filter((b) => /^fallow solve INSTANCE\.json /m.test(b));
    const [plotBlock] = shBlocksUnder(readme(), '## Charts').filter((b) => /^fallow plot /m.test(b));
    assert.ok(solveBlock && plotBlock, 'README.md has both blocks');
    await withTempDir(async (dir) => {
      copyFileSync(path.join(EXAMPLES, 'instance-small.json'), path.join(dir, 'INSTANCE.json'));
      copyFileSync(path.join(EXAMPLES, 'usage-history.csv'), path.join(dir, 'HISTORY.csv'));
      mkdirSync(path.join(dir, 'TRACES_DIR'));
      copyFileSync(path.join(EXAMPLES, 'usage-history.csv'), path.join(dir, 'TRACES_DIR', 'history.csv'));
      const instance = JSON.parse(readFileSync(path.join(dir, 'INSTANCE.json'), 'utf8'));

      const stdout = await runBlock(solveBlock, dir);
      assert.match(stdout, /^FEASIBLE scheduledTasks=(\d+)\/\1 /m);
      const plan = JSON.parse(readFileSync(path.join(dir, 'plan.json'), 'utf8'));
      assert.equal(plan.strategy, 'tps', 'the second solve (tps) wrote plan.json');
      assert.ok(evaluatePlan(loadInstance(instance), plan).ok);
      const usage = JSON.parse(readFileSync(path.join(dir, 'usage.json'), 'utf8'));
      for (const node of instance.nodes) assert.equal(usage[node.id].cpu.length, instance.horizon.slots, `${node.id}: the forecast covers the instance's slots`);
      const reports = [...stdout.matchAll(/^ "makespanSeconds": /gm)];
      assert.equal(reports.length, 2, `two simulate reports on stdout:\n${stdout.slice(-2000)}`);

      const report = await run(process.execPath, [CLI, 'simulate', 'INSTANCE.json', 'plan.json'], { cwd: dir, maxBuffer: 64 * 1024 * 1024 });
      writeFileSync(path.join(dir, 'report.json'), report.stdout);
      await runBlock(plotBlock, dir);
      for (const file of ['gantt.svg', 'sim.svg']) assert.match(readFileSync(path.join(dir, file), 'utf8'), /^<svg[^]*<\/svg>\s*$/, file);
    });
  });
});
