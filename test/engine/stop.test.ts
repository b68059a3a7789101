/**
 * Stopping a solve early: a stop flag in shared memory reaches every strategy even when it runs in a
 * worker thread whose synchronous search never yields to the event loop, and auto stops as soon as the
 * MILP has proved the optimum. Time limits are deliberately generous (shared, noisy machines): they
 * tell "stopped" from "ran out the budget", nothing finer.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { evaluatePlan } from '../../src/engine/evaluate/evaluate';
import { loadInstance } from '../../src/engine/model/model';
import { InstanceDoc, PlanDoc } from '../../src/engine/model/types';
import { solve } from '../../src/engine/solve';
import { strategyNames } from '../../src/engine/strategies';
import { newStopFlag } from '../../src/engine/budget/stop-flag';
import { StopWorkerInput } from './stop-worker';
import { largeMapReduce } from '../../harness/ephemeral-instance';
import { greedyJobSetsMissTheBest } from '../support/job-set-instance';

const BUDGET_MS = 60_000;
const STOP_AFTER_MS = 300;
/** Far below the budget, far above any plausible stop time: only a solve that ignores the flag fails. */
const LIMIT_MS = 10_000;
const SLOT = 60;

/**
 * 965 tasks of ten map-reduce jobs on ten unequal nodes: far from the bound (29 vs ~40), so no
 * strategy finishes early by itself, and auto races exact (whose MILP gets built) against ga on it.
 */
const medium: InstanceDoc = {
  format: 'fallow.instance/v1',
  name: 'medium',
  horizon: { slots: 400, slotSeconds: SLOT },
  metrics: ['cpu', 'ram'],
  nodes: Array.from({ length: 10 }, (_, k) => ({ id: `n${k}`, capacity: { cpu: 8 + 4 * (k % 3), ram: 32 + 16 * (k % 2) }, speed: 1 + (k % 4) * 0.5 })),
  jobs: Array.from({ length: 10 }, (_, j) => ({
    id: `j${j}`,
    stages: [
      { id: 'map', tasks: 60 + 10 * (j % 5), demand: { cpu: 1 + (j % 2), ram: 2 + (j % 3) }, work: SLOT * (2 + (j % 7)) },
      { id: 'reduce', tasks: 10 + (j % 4) * 5, demand: { cpu: 2, ram: 4 }, work: SLOT * (3 + (j % 5)), after: ['map'] },
    ],
  })),
};

/**
 * Solves in a worker thread and raises the stop flag after `stopAfterMs`; resolves with the plan, the
 * time taken and the time from the flag to the plan.
 */
function solveInWorkerAndStop(instance: InstanceDoc, strategy: string, stopAfterMs: number): Promise<{ plan: PlanDoc; tookMs: number; afterStopMs: number }> {
  const stopBuffer = new SharedArrayBuffer(4);
  const input: StopWorkerInput = { instance, strategy, timeBudgetMs: BUDGET_MS, stopBuffer };
  const began = Date.now();
  let raisedAt = Infinity;
  const worker = new Worker(path.join(__dirname, 'stop-worker.js'), { workerData: input });
  const timer = setTimeout(() => {
    raisedAt = Date.now();
    Atomics.store(new Int32Array(stopBuffer), 0, 1);
  }, stopAfterMs);
  // Never let a solve that ignores the flag hold the test run for a whole minute.
  const watchdog = setTimeout(() => void worker.terminate(), 2 * LIMIT_MS);
  return new Promise<{ plan: PlanDoc; tookMs: number; afterStopMs: number }>((resolve, reject) => {
    worker.on('message', (m: { type: 'done'; plan: PlanDoc } | { type: 'error'; message: string }) => {
      const now = Date.now();
      if (m.type === 'done') resolve({ plan: m.plan, tookMs: now - began, afterStopMs: now - raisedAt });
      else reject(new Error(m.message));
    });
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(`worker exited (${code}) without a plan`)));
  }).finally(() => {
    clearTimeout(timer);
    clearTimeout(watchdog);
    void worker.terminate();
  });
}

/** One-shot constructions (the two-stage paper's scheduler and its baselines, Cuckoo, POSUM's portfolio) may finish before the flag. */
const ONE_SHOT = new Set(['tps', 'edf', 'fifo', 'cuckoo', 'portfolio']);

describe('stopFlag: a solve in a worker thread stops when another thread raises the flag', () => {
  const cases: [string, number][] = strategyNames().map((name) => [name, STOP_AFTER_MS]);
  // exact spends the first second (10% of the budget, at most 1 s) on its warm start: a later flag
  // reaches it while HiGHS works in its own thread, through the polled abort rather than timeUp.
  cases.push(['exact', 1500], ['auto', 1500]);
  for (const [name, stopAfterMs] of cases) {
    test(`${name}, flag raised at ${stopAfterMs} ms: a feasible plan, long before the ${BUDGET_MS / 1000} s budget`, async () => {
      const { plan, tookMs, afterStopMs } = await solveInWorkerAndStop(medium, name, stopAfterMs);
      assert.ok(tookMs < LIMIT_MS, `took ${tookMs} ms with the flag raised at ${stopAfterMs} ms`);
      if (!ONE_SHOT.has(name)) assert.ok(afterStopMs >= 0, 'the solve ran until the flag');
      const model = loadInstance(medium);
      assert.deepEqual(evaluatePlan(model, plan).violations, []);
      assert.equal(plan.objective.scheduledTasks, model.nTasks, 'the plan so far, not an empty one');
    });
  }

  test(`auto on a large instance, flag raised at ${STOP_AFTER_MS} ms: its ls stream on a second thread stops too`, async () => {
    const large = largeMapReduce();
    const { plan, tookMs } = await solveInWorkerAndStop(large, 'auto', STOP_AFTER_MS);
    assert.ok(tookMs < LIMIT_MS, `took ${tookMs} ms`);
    assert.equal(typeof (plan.stats?.streams as { thread?: unknown } | undefined)?.thread, 'object', 'the thread answered');
    assert.deepEqual(evaluatePlan(loadInstance(large), plan).violations, []);
  });

  test(`ls where not every job fits (independent episodes), flag raised at ${STOP_AFTER_MS} ms: it stops in its first episode`, async () => {
    const overloaded = greedyJobSetsMissTheBest();
    const { plan, tookMs } = await solveInWorkerAndStop(overloaded, 'ls', STOP_AFTER_MS);
    assert.ok(tookMs < LIMIT_MS, `took ${tookMs} ms`);
    const episodes = plan.stats?.episodes as unknown[] | undefined;
    assert.equal(episodes?.length, 1, JSON.stringify(plan.stats));
    assert.deepEqual(evaluatePlan(loadInstance(overloaded), plan).violations, []);
  });

  test('a flag raised before the solve starts: every strategy returns at once with a feasible plan', async () => {
    const model = loadInstance(medium);
    const stopFlag = newStopFlag();
    Atomics.store(stopFlag, 0, 1);
    for (const name of strategyNames()) {
      const began = Date.now();
      const plan = await solve(model, { strategy: name, timeBudgetMs: BUDGET_MS, stop: stopFlag });
      assert.ok(Date.now() - began < LIMIT_MS, `${name} took ${Date.now() - began} ms`);
      assert.deepEqual(evaluatePlan(model, plan).violations, [], name);
    }
  });
});

describe('auto stops when the MILP proves the optimum', () => {
  test('a tiny instance with a 20 s budget comes back optimal, long before the budget', async () => {
    // Any two of the three tasks overload the node (2 + 2 > 3): the optimum, 6, lies above every
    // engine bound (energy 4), so only the MILP's proof can end the race before the budget.
    const tiny: InstanceDoc = {
      format: 'fallow.instance/v1',
      name: 'tiny',
      horizon: { slots: 30, slotSeconds: SLOT },
      metrics: ['cpu'],
      nodes: [{ id: 'n1', capacity: { cpu: 3 } }],
      jobs: [{ id: 'p', stages: ['a', 'b', 'c'].map((id) => ({ id, tasks: 1, demand: { cpu: 2 }, durationSeconds: 2 * SLOT })) }],
    };
    const model = loadInstance(tiny);
    const began = Date.now();
    const plan = await solve(model, { strategy: 'auto', timeBudgetMs: 20_000 });
    const took = Date.now() - began;
    assert.deepEqual(evaluatePlan(model, plan).violations, []);
    assert.equal(plan.objective.makespanSlots, 6);
    assert.equal(plan.optimal, true);
    assert.ok(took < LIMIT_MS, `took ${took} ms of a 20 s budget`);
  });
});
