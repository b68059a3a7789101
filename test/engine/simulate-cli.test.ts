/**
 * `fallow simulate` end to end on temporary files: the compiled CLI (dist/src/cli/main.js) prints one JSON
 * report for a plan or a policy, says when it uses the instance's own usage, and exits 2 naming the
 * field on bad input.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, test } from 'node:test';
import { InstanceDoc } from '../../src/engine/model/types';
import { at, planOf, withTempDir } from '../support/fixtures';
import { flat, oneJob } from '../support/sim-fixtures';

const CLI = path.resolve(__dirname, '../../src/cli/main.js');

function fallow(...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 20_000 });
  assert.equal(r.error, undefined, `could not run the CLI: ${r.error}`);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const KEYS = ['makespanSeconds', 'jobExecutionSeconds', 'relaunchedTaskPct', 'remoteTaskPct', 'bytesMoved', 'deadlineMisses', 'revenue', 'interferenceSlots'];

const INSTANCE: InstanceDoc = oneJob(
  [
    { id: 'map', tasks: 2, demand: { cpu: 1, ram: 2 }, durationSeconds: 50, inputMB: 10 },
    { id: 'reduce', tasks: 1, after: ['map'], demand: { cpu: 1, ram: 2 }, durationSeconds: 50 },
  ],
  { usage: { a: { cpu: flat(0.25), ram: flat(0.25) } } },
);
const PLAN = planOf(INSTANCE, [at('j/map/0@a:0'), at('j/map/1@b:0'), at('j/reduce/0@a:1')]);

describe('fallow simulate', () => {
  test('a plan with --actual and --qos prints the report', async () => {
    await withTempDir((_dir, write) => {
      const r = fallow('simulate', write('i.json', INSTANCE), write('p.json', PLAN), '--actual', write('u.json', { a: { ram: flat(0.5) } }), '--qos', 'salamander', '--seed', '3');
      assert.equal(r.code, 0, r.stderr);
      const report = JSON.parse(r.stdout);
      for (const k of KEYS) assert.ok(k in report, `missing ${k}`);
      assert.deepEqual(Object.keys(report.jobExecutionSeconds).sort(), ['max', 'median', 'min']);
      assert.equal(report.makespanSeconds, 100);
      assert.equal(report.seed, 3);
      assert.equal(report.remoteTaskPct, 0);
    });
  });

  test('--policy runs without a plan; without --actual it says it uses the forecast', async () => {
    await withTempDir((_dir, write) => {
      for (const policy of ['hadoop', 'cuckoo']) {
        const r = fallow('simulate', write('i.json', INSTANCE), '--policy', policy);
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stderr, /instance's own usage/);
        const report = JSON.parse(r.stdout);
        for (const k of KEYS) assert.ok(k in report, `missing ${k}`);
        assert.equal(report.driver, policy);
        assert.equal(report.reduceSlowstart, 1);
      }
      const posum = JSON.parse(fallow('simulate', write('i.json', INSTANCE), '--policy', 'posum', '--period', '300', '--qos', 'none').stdout);
      assert.ok(posum.decisions.length > 0 && posum.decisions[0].scores.length === 16, 'posum decides among 16 members');
      for (const k of ['vd', 'sb', 'c']) assert.equal(typeof posum.score[k], 'number');
      assert.equal(typeof posum.fc, 'number');
      // A second job submitted at 150 s: decided on at once by default, at the next period (300 s) with --periodic-only.
      const later = write('two.json', { ...INSTANCE, jobs: [...INSTANCE.jobs, { ...INSTANCE.jobs[0], id: 'k', releaseSlot: 3 }] });
      const times = (...flags: string[]) => JSON.parse(fallow('simulate', later, '--policy', 'posum', '--period', '300', '--qos', 'none', ...flags).stdout).decisions.map((d: { timeSeconds: number }) => d.timeSeconds);
      assert.ok(times().includes(150), `${times()}`);
      assert.ok(times('--periodic-only').every((t: number) => t % 300 === 0), `${times('--periodic-only')}`);
      // --threads 2: the same decisions and score, the look-ahead shared with a second thread.
      const shared = JSON.parse(fallow('simulate', later, '--policy', 'posum', '--period', '300', '--qos', 'none', '--threads', '2').stdout);
      const alone = JSON.parse(fallow('simulate', later, '--policy', 'posum', '--period', '300', '--qos', 'none').stdout);
      const decided = (r: { decisions: { elapsedMs?: number }[] }) => r.decisions.map(({ elapsedMs: _, ...d }) => d);
      assert.deepEqual(decided(shared), decided(alone));
      assert.deepEqual(shared.score, alone.score);
      assert.equal(shared.lookAheadThreads.gaveUp, false);
      const early = JSON.parse(fallow('simulate', write('i.json', INSTANCE), '--policy', 'hadoop', '--reduce-slowstart', '0.05').stdout);
      assert.equal(early.reduceSlowstart, 0.05);
    });
  });

  test('--qos-period: the 100-ms default sees a burst inside a slot, the slot length does not', async () => {
    await withTempDir((_dir, write) => {
      // Map 1 holds 2 GB of b's 16 for 50 s; b's RAM rises from 0 to 100 % through slot 0 (every slot start but
      // slot 1's is 0): 2 GB no longer fit from t = 43.75 s. Checked once per slot, the load is 0 until 50 s, when
      // the map has ended (and the reduce runs on a).
      const burst = flat(0).map((_, t) => (t === 1 ? 1 : 0));
      const args = ['simulate', write('i.json', INSTANCE), write('p.json', PLAN), '--actual', write('u.json', { b: { ram: burst } }), '--qos', 'cuckoo'];
      const fast = JSON.parse(fallow(...args).stdout);
      const slow = JSON.parse(fallow(...args, '--qos-period', '50').stdout);
      assert.ok(fast.relaunches >= 1, `relaunched ${fast.relaunches}`);
      assert.ok(fast.makespanSeconds > 100);
      assert.equal(slow.relaunches, 0);
      assert.equal(slow.makespanSeconds, 100);
      assert.match(fallow(...args, '--qos-period', '0').stderr, /--qos-period must be a number of seconds >= 0.001/);
      assert.match(fallow(...args, '--qos-period', '60').stderr, /--qos-period must be at most the slot length, 50 s/);
    });
  });

  test('--outages loses a node (its task relaunched elsewhere); --replan-every re-plans around it; bad values exit 2 naming them', async () => {
    await withTempDir((_dir, write) => {
      const inst = write('i.json', INSTANCE);
      const plan = write('p.json', PLAN);
      // b is lost at 10 s, for good: j/map/1 is killed there and runs on a.
      const outages = write('o.json', [{ node: 'b', fromSeconds: 10 }]);
      const lost = fallow('simulate', inst, plan, '--outages', outages, '--quiet');
      assert.equal(lost.code, 0, lost.stderr);
      const report = JSON.parse(lost.stdout);
      assert.equal(report.relaunches, 1);
      assert.equal(report.unfinishedJobs, 0);
      const replanned = fallow('simulate', inst, plan, '--outages', outages, '--replan-every', '1', '--replan-budget-ms', '200', '--quiet');
      assert.equal(replanned.code, 0, replanned.stderr);
      const r = JSON.parse(replanned.stdout);
      assert.equal(r.unfinishedJobs, 0);
      assert.equal(r.replan.replans[0].trigger, 'node-lost');
      assert.equal(r.replan.replans[0].outcome, 'adopted');
      assert.equal(r.replan.replans[0].frozenTasks, 1, 'j/map/0 runs on a since 0');
      const badOutage = fallow('simulate', inst, plan, '--outages', write('o2.json', [{ node: 'zz', fromSeconds: 10, toSeconds: 5 }]));
      assert.equal(badOutage.code, 2);
      assert.match(badOutage.stderr, /outages\[0\]\.node/);
      assert.match(badOutage.stderr, /outages\[0\]\.toSeconds/);
      const badOn = fallow('simulate', inst, plan, '--replan-on', 'sometimes');
      assert.equal(badOn.code, 2);
      assert.match(badOn.stderr, /--replan-on must be kill,node, kill, node or none, got "sometimes"/);
      assert.match(fallow('simulate', inst, plan, '--replan-every', '0').stderr, /--replan-every must be a number of minutes > 0/);
      assert.match(fallow('simulate', inst, '--policy', 'hadoop', '--replan-every', '5').stderr, /does not go with --policy/);
    });
  });

  test('--early-start: a task planned late starts when its node is free; not with --policy', async () => {
    await withTempDir((_dir, write) => {
      const inst = write('i.json', INSTANCE);
      // The reduce planned at 200 s, its maps done at 50 s: at once with --early-start, at 200 s without.
      const late = write('late.json', planOf(INSTANCE, [at('j/map/0@a:0'), at('j/map/1@b:0'), at('j/reduce/0@a:4')]));
      assert.equal(JSON.parse(fallow('simulate', inst, late, '--quiet').stdout).makespanSeconds, 250);
      const early = fallow('simulate', inst, late, '--early-start', '--quiet');
      assert.equal(early.code, 0, early.stderr);
      assert.equal(JSON.parse(early.stdout).makespanSeconds, 100);
      const withPolicy = fallow('simulate', inst, '--policy', 'hadoop', '--early-start');
      assert.equal(withPolicy.code, 2);
      assert.match(withPolicy.stderr, /--early-start changes how a plan is followed: it does not go with --policy/);
    });
  });

  test('bad input exits 2 and names the field', async () => {
    await withTempDir((_dir, write) => {
      const inst = write('i.json', INSTANCE);
      const badUsage = fallow('simulate', inst, '--policy', 'hadoop', '--actual', write('u.json', { a: { cpu: [...flat(0.1, 19), 1.5] } }));
      assert.equal(badUsage.code, 2);
      assert.match(badUsage.stderr, /actual\.a\.cpu\[19\]/);
      const unknownNode = fallow('simulate', inst, '--policy', 'hadoop', '--actual', write('u2.json', { zz: {} }));
      assert.equal(unknownNode.code, 2);
      assert.match(unknownNode.stderr, /actual\.zz/);
      const badTruth = fallow('simulate', inst, '--policy', 'hadoop', '--true-seconds', write('t.json', { nojob: { map: 1 } }), '--runtime-sigma', 'x');
      assert.equal(badTruth.code, 2);
      assert.match(badTruth.stderr, /trueSeconds\.nojob/);
      assert.match(badTruth.stderr, /runtimeSigma: must be a number in \[0, 3\]/);
      const badDelta = fallow('simulate', inst, '--policy', 'posum', '--delta', '2');
      assert.equal(badDelta.code, 2);
      assert.match(badDelta.stderr, /--delta must be a number in \[0, 1\]/);
      assert.match(fallow('simulate', inst, '--policy', 'locf', '--provision', 'mostly').stderr, /--provision must be one of plus-x, minus-x, dlx, maxbsd/);
      assert.match(fallow('simulate', inst, '--policy', 'posum', '--period', '0').stderr, /--period must be a number of seconds > 0/);
      assert.match(fallow('simulate', inst, '--policy', 'posum', '--look-ahead-mode', 'exact').stderr, /--look-ahead-mode must be one of replay, rebuild, got "exact"/);
      assert.match(fallow('simulate', inst, '--policy', 'posum', '--ls-member', '--look-ahead-mode', 'replay').stderr, /--look-ahead-mode must be rebuild with lsMember/);
      assert.match(fallow('simulate', inst, '--policy', 'posum', '--threads', '4').stderr, /--threads must be 1 or 2, got "4"/);
      assert.match(fallow('simulate', inst, '--policy', 'hadoop', '--threads', '2').stderr, /--threads shares POSUM's look-aheads: it goes with --policy posum/);
      assert.match(fallow('simulate', inst, '--policy', 'posum', '--threads', '2', '--look-ahead-mode', 'rebuild').stderr, /--threads 2 shares the replayed look-ahead/);
      const badSlowstart = fallow('simulate', inst, '--policy', 'hadoop', '--reduce-slowstart', '0');
      assert.equal(badSlowstart.code, 2);
      assert.match(badSlowstart.stderr, /--reduce-slowstart must be a number in \(0, 1\]/);
      const badPolicy = fallow('simulate', inst, '--policy', 'yarn');
      assert.equal(badPolicy.code, 2);
      assert.match(badPolicy.stderr, /--policy/);
      const badInstance = fallow('simulate', write('bad.json', { ...INSTANCE, horizon: { slots: 0, slotSeconds: 50 } }), '--policy', 'hadoop');
      assert.equal(badInstance.code, 2);
      assert.match(badInstance.stderr, /horizon\.slots/);
      const badPlan = fallow('simulate', inst, write('p.json', { ...PLAN, assignments: PLAN.assignments.slice(1) }));
      assert.equal(badPlan.code, 2);
      assert.match(badPlan.stderr, /plan/);
    });
  });
});
