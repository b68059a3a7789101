/**
 * ls's independent episodes when not every job fits (restarts.ts): how many there are, that the best
 * episode wins, that progress is only reported when it beats every earlier episode, that each episode
 * gets its own slice of the time (or of the iterations) and its own random stream, and that ls runs them.
 * The solve ends by its iteration limit (SolveOptions.episodes): how many episodes a time budget buys
 * depends on the CPU the solve gets, so only episodeCount's arithmetic is tested on the clock.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluatePlan } from '../../src/engine/evaluate/evaluate';
import { loadInstance, Model } from '../../src/engine/model/model';
import { Random } from '../../src/engine/random';
import { Schedule } from '../../src/engine/schedule/schedule';
import { solve } from '../../src/engine/solve';
import { episodeCount, restarts } from '../../src/engine/strategies/ls/restarts';
import { Budget } from '../../src/engine/budget/budget';
import { StrategyContext, StrategyResult } from '../../src/engine/contracts/strategy';
import { greedyJobSetsMissTheBest } from '../support/job-set-instance';
import { BY_WORK } from '../support/work-limit';

/** The given jobs accepted, their tasks one after another on the node from slot `from`. */
function scheduleOf(model: Model, jobs: number[], from = 0): Schedule {
  const s = new Schedule(model);
  let t = from;
  for (const j of jobs) {
    s.accepted[j] = 1;
    const job = model.jobs[j];
    for (let i = job.firstTask; i < job.firstTask + job.taskCount; i++) {
      s.node[i] = 0;
      s.start[i] = t;
      t = s.end(i);
    }
  }
  return s;
}

function context(model: Model, ms: number, reports: Array<[number, number]>, maxIterations?: number): StrategyContext {
  return {
    model,
    objective: 'tasks-then-makespan',
    rng: new Random(7),
    budget: Budget.start({ timeBudgetMs: ms, maxIterations }),
    lowerBound: 1,
    report: (_it, tasks, makespan) => reports.push([tasks, makespan]),
  };
}

/** The ls run's iteration limit: 2 episodes of 50,000 moves and decodes (0.35-1.3 s in all, measured on a busy machine). */
const LS_ITERATIONS = 100_000;

describe('ls restarts', () => {
  it('runs one search when everything fits, under an iteration limit, or without time for two episodes', () => {
    const model = loadInstance(greedyJobSetsMissTheBest());
    const partial = scheduleOf(model, [1]);
    const all = scheduleOf(model, [0, 1, 2, 3]);
    assert.equal(episodeCount(context(model, 10_000, []), partial), 3);
    assert.equal(episodeCount(context(model, 5_000, []), partial), 1);
    assert.equal(episodeCount(context(model, 10_000, []), all), 1);
    assert.equal(episodeCount(context(model, 10_000, [], 1000), partial), 1);
    // Under an iteration limit the episodes asked for, whatever the time left; still one when everything fits.
    assert.equal(episodeCount({ ...context(model, 1, [], 1000), episodes: 4 }, partial), 4);
    assert.equal(episodeCount({ ...context(model, 10_000, [], 1000), episodes: 4 }, all), 1);
    assert.equal(episodeCount({ ...context(model, 10_000, []), episodes: 4 }, partial), 3, 'without a limit the time decides');
  });

  it('under an iteration limit, gives each episode an equal share of the iterations, what one leaves going to the next', () => {
    const model = loadInstance(greedyJobSetsMissTheBest());
    const ctx = context(model, 300, [], 900);
    const seen: Array<{ deadline: number; maxIterations: number }> = [];
    const out = restarts(ctx, 3, scheduleOf(model, [1]), (sub): StrategyResult => {
      seen.push({ deadline: sub.budget.deadline, maxIterations: sub.budget.maxIterations });
      return { schedule: scheduleOf(model, [1]), iterations: 100 };
    });
    // Shares end at 300, 600 and 900 iterations; each episode used 100.
    assert.deepEqual(seen.map((s) => s.maxIterations), [300, 500, 700]);
    assert.ok(seen.every((s) => s.deadline === ctx.budget.deadline), 'the time is only the backstop of every episode');
    assert.equal(out.iterations, 300);
  });

  it('keeps the best episode, reports only gains, and gives each episode its own time and random stream', () => {
    const model = loadInstance(greedyJobSetsMissTheBest());
    // Episode results by task count: 3 (pair + long), 6 (two triples), then 5 (pair + triple).
    const results = [[0, 1], [2, 3], [1, 2]];
    const reports: Array<[number, number]> = [];
    const ctx = context(model, 300, reports);
    const seen: Array<{ deadline: number; draw: number; initial: Schedule | null; bestTasks: number }> = [];
    const initial = scheduleOf(model, [1]);
    const out = restarts(ctx, 3, initial, (sub, start, bestTasks): StrategyResult => {
      const k = seen.length;
      seen.push({ deadline: sub.budget.deadline, draw: sub.rng.nextU32(), initial: start, bestTasks });
      const s = scheduleOf(model, results[k]);
      sub.report(10, s.scheduledTasks(), s.makespan());
      return { schedule: s, iterations: 100, stats: { episode: k } };
    });
    assert.equal(out.schedule.scheduledTasks(), 6);
    assert.equal(out.stats?.episode, 1);
    assert.equal(out.iterations, 300);
    assert.deepEqual(
      (out.stats?.episodes as Array<{ tasks: number }>).map((e) => e.tasks),
      [3, 6, 5],
    );
    // 3 then 6; the third episode's 5 tasks are no news.
    assert.deepEqual(reports.map((r) => r[0]), [3, 6]);
    assert.equal(seen[0].initial, initial);
    assert.equal(seen[1].initial, null);
    assert.ok(seen[0].deadline < seen[1].deadline && seen[1].deadline < seen[2].deadline);
    assert.equal(seen[2].deadline, ctx.budget.deadline);
    assert.equal(new Set(seen.map((s) => s.draw)).size, 3, 'every episode draws from its own stream');
    // Each episode learns the best task count before it (the first none), to aim its target set above it.
    assert.deepEqual(seen.map((s) => s.bestTasks), [-1, 3, 6]);
  });

  it('stops restarting once an episode fits every job, and polishes that schedule for the time left', () => {
    const model = loadInstance(greedyJobSetsMissTheBest());
    const ctx = context(model, 300, []);
    const starts: Array<Schedule | null> = [];
    const out = restarts(ctx, 3, scheduleOf(model, [1]), (sub, start) => {
      // The episode leaves a gap at the start; the polish run closes it.
      const s = scheduleOf(model, [0, 1, 2, 3], starts.length === 0 ? 2 : 0);
      starts.push(start);
      return { schedule: s, iterations: 1, stats: { deadline: sub.budget.deadline } };
    });
    assert.equal(starts.length, 2, 'the first episode, then the polish run');
    assert.equal(starts[1]!.scheduledTasks(), model.nTasks);
    assert.equal(out.stats?.deadline, ctx.budget.deadline, 'the polish run gets the whole time left');
    assert.equal(out.schedule.scheduledTasks(), model.nTasks);
    assert.equal(out.schedule.makespan(), 43);
  });

  it('ls runs the episodes asked for when not every job fits, and returns the best feasible plan', async () => {
    const model = loadInstance(greedyJobSetsMissTheBest());
    const plan = await solve(model, { strategy: 'ls', ...BY_WORK, maxIterations: LS_ITERATIONS, episodes: 2, seed: 3 });
    const episodes = plan.stats?.episodes as Array<{ tasks: number; target?: number }>;
    assert.equal(episodes.length, 2);
    assert.equal(plan.stats?.iterations, LS_ITERATIONS, 'the run ended by its iteration limit');
    // The first episode aims at the greedy bound set: pair and triple1, 5 tasks.
    assert.equal(episodes[0].target, 5);
    assert.equal(plan.objective.scheduledTasks, Math.max(...episodes.map((e) => e.tasks)));
    assert.equal(plan.objective.scheduledTasks, 6);
    assert.ok(evaluatePlan(model, plan).ok);
  });
});
