/**
 * The compiled command line (dist/src/cli/main.js) end to end: `solve` writes a plan, `check` exits 0 on it,
 * 1 on a corrupted plan (printing the violation) and 2 on an invalid instance (naming the JSON path).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { evaluatePlan } from '../../src/engine/evaluate/evaluate';
import { loadInstance } from '../../src/engine/model/model';
import { InstanceDoc, PlanDoc } from '../../src/engine/model/types';
import { CHECKER_PATH, checkerAvailable, SKIP_MESSAGE } from '../support/check-plan';
import { clone, withTempDir } from '../support/fixtures';
import { ephemeralInstance } from '../../harness/ephemeral-instance';
import { randomInstance } from '../support/random-instance';
import { NETWORK_INSTANCE } from '../support/network-instance';
import { freezeAt } from '../../harness/freeze';

/** This file compiles to dist/test/engine/cli.test.js; the CLI to dist/src/cli/main.js. */
const CLI = path.resolve(__dirname, '../../src/cli/main.js');

function fallow(...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 20_000 });
  assert.equal(r.error, undefined, `could not run the CLI: ${r.error}`);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const INSTANCE: InstanceDoc = {
  format: 'fallow.instance/v1',
  name: 'cli-demo',
  horizon: { slots: 30, slotSeconds: 60 },
  metrics: ['cpu', 'ram'],
  nodes: [
    { id: 'h1', capacity: { cpu: 4, ram: 16 }, speed: 2, maxTasks: 3 },
    { id: 'h2', capacity: { cpu: 2, ram: 8 } },
  ],
  usage: { h2: { cpu: Array(30).fill(0.25) } },
  jobs: [
    {
      id: 'wordcount',
      releaseSlot: 1,
      deadlineSlot: 20,
      revenue: { onTime: 5, late: -1 },
      stages: [
        { id: 'map', tasks: 4, demand: { cpu: 1, ram: 2 }, work: 240 },
        { id: 'reduce', tasks: 2, after: ['map'], demand: { cpu: 1, ram: 4 }, durationSeconds: 90 },
      ],
    },
    { id: 'etl', stages: [{ id: 'load', tasks: 3, demand: { cpu: 1 }, durationSeconds: 180 }] },
  ],
};

describe('fallow CLI', () => {
  test('the CLI is built', () => {
    assert.ok(existsSync(CLI), `${CLI} missing: run tsc first`);
  });

  test('solve --out writes a feasible plan; check exits 0 on it', async () => {
    await withTempDir(async (dir, write) => {
      const inst = write('instance.json', INSTANCE);
      const out = path.join(dir, 'plan.json');
      const s = fallow('solve', inst, '--strategy', 'rffd', '--budget-ms', '200', '--out', out);
      assert.equal(s.code, 0, s.stderr);
      assert.equal(s.stdout, '', 'with --out the plan goes to the file only');
      assert.match(s.stderr, /^scheduled 9\/9 tasks, makespan \d+, bound \d+, gap [\d.]+%/m);
      const plan: PlanDoc = JSON.parse(readFileSync(out, 'utf8'));
      assert.equal(plan.format, 'fallow.plan/v1');
      assert.equal(plan.strategy, 'rffd');
      assert.equal(plan.instance, 'cli-demo');
      assert.ok(evaluatePlan(loadInstance(INSTANCE), plan).ok);

      const c = fallow('check', inst, out);
      assert.equal(c.code, 0, c.stdout + c.stderr);
      assert.match(c.stdout, new RegExp(`^FEASIBLE scheduledTasks=9/9 makespanSlots=${plan.objective.makespanSlots} rejectedJobs=0 revenue=-?\\d+ onTimeJobs=[01] PRU=0\\.\\d{4} JCR=[01]\\.\\d{4} remoteTasks=0 transfersPriced=false\\n$`));

      const j = fallow('check', inst, out, '--json');
      assert.equal(j.code, 0);
      const report = JSON.parse(j.stdout);
      assert.equal(report.ok, true);
      assert.equal(report.transfersPriced, false);
      assert.deepEqual(report.violations, []);
      assert.equal(report.kpis.scheduledTasks, 9);
      assert.equal(report.kpis.makespanSlots, plan.objective.makespanSlots);
    });
  });

  test('check exits 1 on a corrupted plan and prints the violations', async () => {
    await withTempDir(async (dir, write) => {
      const inst = write('instance.json', INSTANCE);
      const out = path.join(dir, 'plan.json');
      assert.equal(fallow('solve', inst, '--strategy', 'rffd', '--budget-ms', '200', '--out', out, '--quiet').code, 0);
      const plan: PlanDoc = JSON.parse(readFileSync(out, 'utf8'));

      const dropped = clone(plan);
      const gone = dropped.assignments.findIndex((a) => a.job === 'wordcount');
      dropped.assignments.splice(gone, 1);
      let c = fallow('check', inst, write('dropped.json', dropped));
      assert.equal(c.code, 1);
      assert.match(c.stdout, /^INFEASIBLE /);
      assert.match(c.stdout, /^ {2}- job "wordcount" is neither rejected nor complete: 5\/6 tasks assigned$/m);
      assert.match(c.stdout, /^ {2}- objective\.scheduledTasks=9 but the assignments give 3$/m);

      const early = clone(plan);
      const a = early.assignments.find((x) => x.job === 'wordcount' && x.stage === 'map')!;
      a.start = 0;
      c = fallow('check', inst, write('early.json', early));
      assert.equal(c.code, 1);
      assert.match(c.stdout, /^ {2}- task wordcount\/map\/\d starts at 0 before the job's release 1$/m);

      const j = fallow('check', inst, write('dropped.json', dropped), '--json');
      assert.equal(j.code, 1);
      assert.equal(JSON.parse(j.stdout).ok, false);
    });
  });

  test('check prices transfers when the plan says so: fetchSlots below the least fetch time exits 1', async () => {
    await withTempDir(async (_dir, write) => {
      // A map whose block lives on n1 runs on n2, across racks at 80 Mbit/s: 100 MB in 10 s, one slot; its
      // 100 MB of output goes back to the reduce on n1 the same way. With compute (one slot each): makespan 4.
      const inst = write('instance.json', {
        format: 'fallow.instance/v1',
        name: 'cli-priced',
        horizon: { slots: 20, slotSeconds: 10 },
        metrics: ['cpu'],
        network: { intraRackMbps: 1000, interRackMbps: 80 },
        nodes: [
          { id: 'n1', rack: 'r1', capacity: { cpu: 2 } },
          { id: 'n2', rack: 'r2', capacity: { cpu: 2 } },
        ],
        jobs: [
          {
            id: 'j',
            stages: [
              { id: 'map', tasks: 1, durationSeconds: 10, demand: { cpu: 1 }, inputMB: 100, outputMB: 100, blocks: [['n1']] },
              { id: 'reduce', tasks: 1, after: ['map'], durationSeconds: 10, demand: { cpu: 1 } },
            ],
          },
        ],
      } satisfies InstanceDoc);
      const plan = (reduceFetch: number): PlanDoc => ({
        format: 'fallow.plan/v1',
        instance: 'cli-priced',
        strategy: 'hand',
        transfers: 'priced',
        assignments: [
          { job: 'j', stage: 'map', task: 0, node: 'n2', start: 0, fetchSlots: 1 },
          { job: 'j', stage: 'reduce', task: 0, node: 'n1', start: 2, fetchSlots: reduceFetch },
        ],
        rejected: [],
        objective: { scheduledTasks: 2, makespanSlots: 4 },
      });
      const ok = fallow('check', inst, write('ok.json', plan(1)));
      assert.equal(ok.code, 0, ok.stdout);
      assert.match(ok.stdout, /^FEASIBLE scheduledTasks=2\/2 makespanSlots=4 .* transfersPriced=true\n$/);
      assert.equal(JSON.parse(fallow('check', inst, write('ok.json', plan(1)), '--json').stdout).transfersPriced, true);
      const short = fallow('check', inst, write('short.json', plan(0)));
      assert.equal(short.code, 1);
      assert.match(short.stdout, /^INFEASIBLE .* transfersPriced=true\n/);
      assert.match(short.stdout, /^ {2}- task j\/reduce\/0 on node "n1": fetchSlots 0 below the least fetch time 1$/m);
      // Another value prices nothing (check-plan.py reads the plan as unpriced), and the evaluator names it.
      const other = fallow('check', inst, write('other.json', { ...plan(1), transfers: 'yes' }));
      assert.equal(other.code, 1);
      assert.match(other.stdout, /^INFEASIBLE .* transfersPriced=false\n/);
      assert.match(other.stdout, /^ {2}- transfers: must be "priced" when given, got "yes"$/m);
      // The same priced plan file replays (fallow simulate): its tasks launch at their starts and fetch over the links.
      const sim = fallow('simulate', inst, write('ok.json', plan(1)), '--qos', 'none', '--quiet');
      assert.equal(sim.code, 0, sim.stderr);
      assert.equal(JSON.parse(sim.stdout).driver, 'plan:hand');
    });
  });

  test('an invalid instance exits 2 naming the JSON path, for solve and check', async () => {
    await withTempDir(async (dir, write) => {
      const bad = clone(INSTANCE) as any;
      bad.jobs[0].stages[1].after = ['mapp'];
      bad.nodes[1].capacity.cpu = -2;
      const inst = write('bad.json', bad);
      const plan = write('plan.json', { format: 'fallow.plan/v1', assignments: [], rejected: [] });
      for (const args of [['solve', inst, '--strategy', 'rffd', '--budget-ms', '200'], ['check', inst, plan]]) {
        const r = fallow(...args);
        assert.equal(r.code, 2, r.stderr);
        assert.equal(r.stdout, '');
        assert.equal(
          r.stderr,
          `fallow ${args[0]}: instance is not valid:\n` +
            '  nodes[1].capacity.cpu: must be a number >= 0, got -2\n' +
            '  jobs[0].stages[1].after[0]: unknown stage "mapp"\n',
        );
      }
    });
  });

  test('unreadable files, bad options and unknown strategies exit 2 with a message', async () => {
    await withTempDir(async (dir, write) => {
      const inst = write('instance.json', INSTANCE);
      const notJson = write('broken.json', '{"format": ');
      let r = fallow('check', notJson, inst);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /^fallow check: .*broken\.json is not valid JSON: /);
      r = fallow('solve', path.join(dir, 'missing.json'));
      assert.equal(r.code, 2);
      assert.match(r.stderr, /^fallow solve: cannot read .*missing\.json: /);
      r = fallow('solve', inst, '--budget-ms', 'soon');
      assert.equal(r.code, 2);
      assert.match(r.stderr, /^fallow solve: --budget-ms must be a positive number, got "soon" \(see fallow solve --help\)\n$/);
      r = fallow('solve', inst, '--strategy', 'magic', '--budget-ms', '100');
      assert.equal(r.code, 2);
      assert.match(r.stderr, /^fallow solve: --strategy must be one of .*rffd.*, got "magic" \(see fallow solve --help\)\n$/);
      r = fallow('check', inst);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /^fallow check: check needs INSTANCE\.json and PLAN\.json \(see fallow check --help\)\n$/);
      r = fallow('frobnicate');
      assert.equal(r.code, 2);
      assert.equal(r.stderr, "fallow: unknown command 'frobnicate' (see fallow --help)\n");
      r = fallow('--help');
      assert.equal(r.code, 0);
      assert.match(r.stdout, /^usage: fallow COMMAND .*\n[^]*\n {2}solve /);
    });
  });

  test('solve prints the plan on stdout without --out, reproducibly for a seed and iteration limit', async () => {
    await withTempDir(async (_dir, write) => {
      const inst = write('random.json', randomInstance(20240917));
      const run = () => {
        const r = fallow('solve', inst, '--strategy', 'rffd', '--iterations', '2', '--seed', '7', '--quiet');
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stderr, '', '--quiet prints nothing else');
        const { stats, ...plan } = JSON.parse(r.stdout) as PlanDoc;
        assert.equal(stats?.seed, 7);
        return plan;
      };
      assert.deepEqual(run(), run());
    });
  });

  test('solve --shuffle-aware places the reduces again over the links and says so in the stats', async () => {
    await withTempDir(async (_dir, write) => {
      const inst = write('instance.json', INSTANCE);
      const r = fallow('solve', inst, '--strategy', 'ls', '--iterations', '20', '--shuffle-aware', '--quiet');
      assert.equal(r.code, 0, r.stderr);
      const moved = (JSON.parse(r.stdout) as PlanDoc).stats?.shuffleAware as { movedReduces: number } | undefined;
      assert.ok(moved && Number.isInteger(moved.movedReduces), r.stdout.slice(0, 300));
    });
  });

  test('solve prices transfers on an instance with network fields unless --transfers ignored; another value is a usage error', async () => {
    await withTempDir(async (_dir, write) => {
      const inst = write('instance.json', NETWORK_INSTANCE);
      const solved = (...args: string[]) => {
        const r = fallow('solve', inst, '--strategy', 'ls', '--iterations', '20', '--quiet', ...args);
        assert.equal(r.code, 0, r.stderr);
        return JSON.parse(r.stdout) as PlanDoc;
      };
      for (const priced of [solved(), solved('--transfers', 'priced')]) {
        assert.equal(priced.transfers, 'priced');
        assert.equal(priced.stats?.transfers, 'priced');
        assert.ok(priced.assignments.every((a) => Number.isInteger(a.fetchSlots)), JSON.stringify(priced.assignments));
      }
      const ignored = solved('--transfers', 'ignored');
      assert.equal(ignored.transfers, undefined);
      assert.equal(ignored.stats?.transfers, 'ignored');
      assert.ok(ignored.assignments.every((a) => a.fetchSlots === undefined), JSON.stringify(ignored.assignments));
      assert.ok(evaluatePlan(loadInstance(NETWORK_INSTANCE), ignored).ok);
      const bad = fallow('solve', inst, '--transfers', 'free');
      assert.equal(bad.code, 2);
      assert.equal(bad.stdout, '');
      assert.match(bad.stderr, /^fallow solve: --transfers must be one of priced, ignored, got "free"/);
    });
  });

  test('solve --strategy portfolio takes POSUM\'s weights; other strategies refuse them', async () => {
    await withTempDir(async (_dir, write) => {
      const inst = write('instance.json', INSTANCE);
      const r = fallow('solve', inst, '--strategy', 'portfolio', '--gamma', '5', '--quiet');
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual((JSON.parse(r.stdout) as PlanDoc).stats?.weights, { alpha: 1, beta: 1, gamma: 5 });
      let bad = fallow('solve', inst, '--strategy', 'ls', '--alpha', '2');
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /^fallow solve: --alpha applies only to strategy portfolio, not ls/);
      bad = fallow('solve', inst, '--strategy', 'portfolio', '--beta=-1');
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /--beta must be a number >= 0, got -1/);
    });
  });

  test('a plan larger than a pipe buffer reaches stdout whole', async () => {
    await withTempDir(async (_dir, write) => {
      const inst = write('big.json', ephemeralInstance({ nodes: 12, jobs: 40, maxMaps: 60, seed: 3 }));
      // A reader that starts late: the pipe fills and Node has to queue the rest of the plan.
      const command = `"${process.execPath}" "${CLI}" solve "${inst}" --strategy rffd --iterations 1 --quiet | (sleep 1; cat)`;
      const r = spawnSync('sh', ['-c', command], { encoding: 'utf8', timeout: 20_000, maxBuffer: 64 * 1024 * 1024 });
      assert.equal(r.status, 0, r.stderr);
      assert.ok(r.stdout.length > 256 * 1024, `the plan should be large and whole, got ${r.stdout.length} bytes`);
      const plan = JSON.parse(r.stdout) as PlanDoc;
      assert.ok(plan.assignments.length > 1000);
    });
  });

  test('check-plan.py accepts the plan the CLI writes', async (t) => {
    if (!checkerAvailable()) return t.skip(SKIP_MESSAGE);
    await withTempDir(async (dir, write) => {
      const inst = write('instance.json', INSTANCE);
      const out = path.join(dir, 'plan.json');
      assert.equal(fallow('solve', inst, '--strategy', 'rffd', '--budget-ms', '200', '--out', out, '--quiet').code, 0);
      const r = spawnSync('python3', [CHECKER_PATH, inst, out], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /^FEASIBLE scheduledTasks=9 totalTasks=9 /);
      // and both report the same summary line fields
      const ours = fallow('check', inst, out).stdout;
      for (const field of ['makespanSlots', 'rejectedJobs', 'onTimeJobs']) {
        const pick = (s: string) => new RegExp(`${field}=(\\S+)`).exec(s)?.[1];
        assert.equal(pick(ours), pick(r.stdout), field);
      }
      assert.equal(Number(/revenue=(\S+)/.exec(ours)![1]), Number(/revenue=(\S+)/.exec(r.stdout)![1]));
    });
  });

  test('solve --previous re-plans around the frozen tasks, reports what moved, and refuses a malformed previous plan', async () => {
    await withTempDir(async (dir, write) => {
      const inst = write('instance.json', INSTANCE);
      const first = path.join(dir, 'plan.json');
      assert.equal(fallow('solve', inst, '--strategy', 'rffd', '--budget-ms', '200', '--out', first, '--quiet').code, 0);
      const plan: PlanDoc = JSON.parse(readFileSync(first, 'utf8'));
      const frozenInst = write('frozen.json', freezeAt(INSTANCE, plan, 3));
      const out = path.join(dir, 'replan.json');
      const r = fallow('solve', frozenInst, '--strategy', 'ls', '--iterations', '50', '--previous', first, '--out', out);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /re-planned from slot 3, \d+ frozen, 0 moved, \d+ kept, 0 new, 0 dropped/);
      const again: PlanDoc = JSON.parse(readFileSync(out, 'utf8'));
      assert.ok(evaluatePlan(loadInstance(JSON.parse(readFileSync(frozenInst, 'utf8'))), again).ok);
      assert.equal(fallow('check', frozenInst, out).code, 0);
      const bad = fallow('solve', frozenInst, '--previous', write('bad.json', { format: 'nope', assignments: [] }));
      assert.equal(bad.code, 2, bad.stderr);
      assert.match(bad.stderr, /previous\.format: must be "fallow\.plan\/v1"/);
    });
  });
});
