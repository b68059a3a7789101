/**
 * The Budget (src/engine/budget/): made once from a request, asked "stop now?" by every search, narrowed
 * for a phase, split for a race, copied to another thread on the same stop flags, and turned into an
 * AbortSignal for asynchronous waits.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { Budget, DEFAULT_TIME_BUDGET_MS } from '../../src/engine/budget/budget';
import { newStopFlag, raiseStop, stopRaised } from '../../src/engine/budget/stop-flag';

describe('Budget', () => {
  it('starts from a request, its defaults applied: 5 s, no iteration limit', () => {
    const b = Budget.start({}, 1000);
    assert.equal(DEFAULT_TIME_BUDGET_MS, 5000);
    assert.deepEqual([b.startedAt, b.timeBudgetMs, b.deadline, b.maxIterations], [1000, 5000, 6000, Infinity]);
    const asked = Budget.start({ timeBudgetMs: 300, maxIterations: 40 }, 1000);
    assert.deepEqual([asked.timeBudgetMs, asked.deadline, asked.maxIterations], [300, 1300, 40]);
  });

  it('stopNow: the iteration limit, the deadline or a stop; deadlineCheck ignores the iteration limit', () => {
    const now = Date.now();
    const b = Budget.start({ timeBudgetMs: 60_000, maxIterations: 10 }, now);
    assert.equal(b.stopNow(9), false);
    assert.equal(b.stopNow(10), true);
    assert.equal(b.deadlineCheck()(), false);
    const late = Budget.start({ timeBudgetMs: 1 }, now - 10);
    assert.equal(late.stopNow(0), true);
    assert.equal(late.deadlineCheck()(), true);
    const stop = newStopFlag();
    const stopped = Budget.start({ timeBudgetMs: 60_000, stop }, now);
    assert.equal(stopped.stopNow(0), false);
    raiseStop(stop);
    assert.deepEqual([stopped.stopNow(0), stopped.deadlineCheck()(), stopped.stopRequested()], [true, true, true]);
  });

  it('with() replaces the limits on the same stop request; a child stops with its parent, not the other way round', () => {
    const parent = Budget.start({ timeBudgetMs: 60_000 });
    const phase = parent.with({ deadline: parent.startedAt + 10, maxIterations: 5 });
    assert.deepEqual([phase.deadline, phase.maxIterations, phase.timeBudgetMs], [parent.startedAt + 10, 5, 60_000]);
    const a = parent.child();
    const b = parent.child();
    a.requestStop();
    assert.deepEqual([a.stopRequested(), b.stopRequested(), parent.stopRequested()], [true, false, false]);
    phase.requestStop();
    assert.deepEqual([parent.stopRequested(), b.stopRequested()], [true, true], 'the phase shares its parent\'s stop');
  });

  it('a copy for another thread (toDoc, structured clone, fromDoc) shares the stop flags', () => {
    const outer = newStopFlag();
    const b = Budget.start({ timeBudgetMs: 60_000, maxIterations: 7, stop: outer }).child();
    const copy = Budget.fromDoc(structuredClone(b.toDoc()));
    assert.deepEqual([copy.startedAt, copy.deadline, copy.maxIterations], [b.startedAt, b.deadline, 7]);
    copy.requestStop();
    assert.equal(b.stopRequested(), true, 'the copy stopped the original');
    const again = Budget.fromDoc(structuredClone(Budget.start({ stop: outer }).toDoc()));
    raiseStop(outer);
    assert.equal(again.stopRequested(), true);
  });

  it('refuses a stop flag other threads cannot see', () => {
    assert.throws(() => Budget.start({ stop: new Int32Array(1) }), TypeError);
  });

  it('abortable: aborts at once on a stop requested here, soon on one raised by another thread, never at the deadline', async () => {
    const here = Budget.start({ timeBudgetMs: 60_000 });
    let abortedSync = false;
    const waitHere = here.abortable((signal) => {
      signal.addEventListener('abort', () => (abortedSync = true));
      here.requestStop();
      assert.equal(abortedSync, true, 'the abort listeners ran inside requestStop');
      return Promise.resolve('done');
    });
    assert.equal(await waitHere, 'done');

    const flag = newStopFlag();
    const there = Budget.start({ timeBudgetMs: 60_000, stop: flag });
    const began = Date.now();
    const waitThere = there.abortable(
      (signal) => new Promise<number>((resolve) => signal.addEventListener('abort', () => resolve(Date.now() - began))),
    );
    // Another thread raises the flag with a plain store, as a stop from any thread would; it then stays up,
    // as the solver thread a real wait is on does (the poll itself never keeps the process alive).
    const raiser = 'setTimeout(() => Atomics.store(new Int32Array(workerData), 0, 1), 50); setInterval(() => undefined, 1000);';
    const worker = new Worker(`const { workerData } = require("node:worker_threads"); ${raiser}`, {
      eval: true,
      workerData: flag.buffer,
    });
    const tookMs = await waitThere;
    await worker.terminate();
    assert.equal(stopRaised(flag), true);
    assert.ok(tookMs < 5000, `heard the stop after ${tookMs} ms`);

    const past = Budget.start({ timeBudgetMs: 1 }, Date.now() - 10);
    const aborted = await past.abortable((signal) => new Promise<boolean>((resolve) => setTimeout(() => resolve(signal.aborted), 60)));
    assert.equal(aborted, false, 'the deadline is the wait\'s own business');
  });
});
