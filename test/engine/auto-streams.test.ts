/**
 * auto above EXACT_TASK_LIMIT: two independent ls streams, one on a worker thread (ls-thread.ts); the
 * better plan is kept and the run stays reproducible under an iteration limit. That a stop flag reaches
 * the thread is in stop.test.ts.
 */
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { describe, it } from 'node:test';
import { Budget } from '../../src/engine/budget/budget';
import { evaluatePlan } from '../../src/engine/evaluate/evaluate';
import { loadInstance, Model } from '../../src/engine/model/model';
import { Random } from '../../src/engine/random';
import { startLsThread } from '../../src/engine/strategies/auto/ls-thread';
import { solve } from '../../src/engine/solve';
import { EXACT_TASK_LIMIT } from '../../src/engine/strategies/auto/auto';
import { largeMapReduce } from '../../harness/ephemeral-instance';

interface StreamSummary {
  tasks: number;
  makespan: number;
  iterations: number;
}

const model = loadInstance(largeMapReduce());
const skip = availableParallelism() < 2 ? 'one CPU: auto runs ls alone' : false;

describe('auto on a large instance', { skip }, () => {
  it('races two ls streams and keeps the better plan, reproducibly under an iteration limit', async () => {
    assert.ok(model.nTasks > EXACT_TASK_LIMIT, `${model.nTasks} tasks`);
    const run = () => solve(model, { strategy: 'auto', maxIterations: 4000, timeBudgetMs: 120_000, seed: 4 });
    const plan = await run();
    const streams = plan.stats?.streams as { main: StreamSummary; thread: StreamSummary };
    assert.equal(typeof streams.thread, 'object', 'the thread answered');
    const { main, thread } = streams;
    const threadBetter = thread.tasks > main.tasks || (thread.tasks === main.tasks && thread.makespan < main.makespan);
    assert.equal(plan.stats?.chosen, threadBetter ? 'ls (thread)' : 'ls');
    const kept = threadBetter ? thread : main;
    assert.equal(plan.objective.scheduledTasks, kept.tasks);
    assert.equal(plan.objective.makespanSlots, kept.makespan);
    const check = evaluatePlan(model, plan);
    assert.ok(check.ok, check.violations.slice(0, 3).join('; '));
    const again = await run();
    assert.deepEqual(again.assignments, plan.assignments);
    const { waitMs: _a, ...streamsAgain } = again.stats?.streams as Record<string, unknown>;
    const { waitMs: _b, ...streamsFirst } = plan.stats?.streams as Record<string, unknown>;
    assert.deepEqual(streamsAgain, streamsFirst);
  });

  it('with the revenue objective keeps the stream that earns more, even with fewer tasks', async () => {
    const run = () => solve(model, { strategy: 'auto', objective: 'revenue', maxIterations: 400, timeBudgetMs: 120_000, seed: 4 });
    const plan = await run();
    const { main, thread } = plan.stats?.streams as { main: StreamSummary & { revenue: number }; thread: StreamSummary & { revenue: number } };
    assert.equal(typeof thread, 'object', 'the thread answered');
    const kept = thread.revenue > main.revenue ? thread : main;
    assert.equal(plan.stats?.chosen, kept === thread ? 'ls (thread)' : 'ls');
    assert.equal(plan.objective.revenue, kept.revenue);
    assert.equal(plan.objective.revenue, Math.max(main.revenue, thread.revenue));
    assert.ok(evaluatePlan(model, plan).ok);
    const again = await run();
    assert.deepEqual(again.assignments, plan.assignments);
  });

  it('a thread that fails resolves with the reason instead of a plan', async () => {
    const broken = { ...model, doc: { ...model.doc, nodes: undefined } } as unknown as Model;
    const thread = startLsThread(
      { model: broken, objective: 'tasks-then-makespan', rng: new Random(1), budget: Budget.start({ timeBudgetMs: 5000, maxIterations: 100 }), lowerBound: 1, report: () => {} },
      1,
    );
    const answer = await thread.result;
    assert.equal(typeof answer, 'string');
    assert.match(answer as string, /^error: /);
  });
});
