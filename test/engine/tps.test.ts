/**
 * The two-stage paper's strategies: tps (SMR + SAS) and its baselines fifo and edf. Plans are feasible on
 * the paper's platform and on a heterogeneous one, the baselines order jobs as they should, tps drops
 * jobs that would only lose money and protects the valuable one, and on the paper's platform tps earns
 * more than both baselines (the paper's section 5 claim, and the acceptance target).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { evaluatePlan, Kpis } from '../../src/engine/evaluate/evaluate';
import { loadInstance } from '../../src/engine/model/model';
import { InstanceDoc, JobSpec, PlanDoc } from '../../src/engine/model/types';
import { solve } from '../../src/engine/solve';
import { SolveOptions } from '../../src/engine/contracts/strategy';
import { BY_WORK } from '../support/work-limit';
import { tpsHeterogeneousInstance, tpsPaperInstance } from '../../harness/tps-instance';

const STRATEGIES = ['tps', 'fifo', 'edf'] as const;

/**
 * Solves by work (BY_WORK): tps cut short by its budget returns its EDF fallback, so on a busy machine a
 * time budget could turn every revenue comparison below into EDF against EDF.
 */
async function run(inst: InstanceDoc, strategy: string, limits: SolveOptions = BY_WORK): Promise<{ plan: PlanDoc; kpis: Kpis }> {
  const model = loadInstance(inst);
  const plan = await solve(model, { strategy, objective: 'revenue', ...limits });
  const e = evaluatePlan(model, plan);
  assert.deepEqual(e.violations, [], `${strategy} on ${inst.name}: the evaluator accepts the plan`);
  assert.equal(e.ok, true);
  return { plan, kpis: e.kpis };
}

/** One node with one core, slots of 10 s: single-task jobs of `slots` slots that run one at a time. */
function oneCore(name: string, T: number, jobs: { id: string; release: number; deadline: number; slots: number; onTime?: number; late?: number }[]): InstanceDoc {
  return {
    format: 'fallow.instance/v1',
    name,
    horizon: { slots: T, slotSeconds: 10 },
    metrics: ['cpu'],
    nodes: [{ id: 'n', capacity: { cpu: 1 } }],
    jobs: jobs.map(
      (j): JobSpec => ({
        id: j.id,
        releaseSlot: j.release,
        deadlineSlot: j.deadline,
        ...(j.onTime !== undefined ? { revenue: { onTime: j.onTime, late: j.late ?? 0 } } : {}),
        stages: [{ id: 'a', tasks: 1, demand: { cpu: 1 }, durationSeconds: 10 * j.slots }],
      }),
    ),
  };
}

const outcome = (kpis: Kpis, id: string) => kpis.jobs.find((j) => j.id === id)!;

describe('tps, fifo and edf plans are feasible', () => {
  for (const [label, make] of [
    ['paper platform', tpsPaperInstance],
    ['heterogeneous nodes, three metrics, availability, DAG stages', tpsHeterogeneousInstance],
  ] as const) {
    test(label, async () => {
      for (const jobs of [5, 30, 80])
        for (const seed of [11, 12]) {
          const inst = make({ jobs, seed });
          for (const s of STRATEGIES) {
            const { plan } = await run(inst, s);
            if (s === 'tps') for (const k of ['abandonedBySmr', 'revivedBySas', 'overloadPeriodsResolved']) assert.ok(Number.isInteger(plan.stats?.[k]), `tps reports ${k}`);
            else assert.equal(plan.stats?.iterations, 1, `${s} is one construction`);
          }
        }
    });
  }

  test('tps returns a feasible plan when the budget is far too short for it', async () => {
    const { plan } = await run(tpsPaperInstance({ jobs: 80, seed: 5 }), 'tps', { timeBudgetMs: 1 });
    assert.ok(plan.assignments.length >= 0);
  });
});

describe('baseline orders', () => {
  // a arrives first, b has the tighter deadline; there is room for only one of them.
  const inst = oneCore('one-fits', 6, [
    { id: 'a', release: 0, deadline: 6, slots: 4 },
    { id: 'b', release: 1, deadline: 5, slots: 4 },
  ]);

  test('FIFO runs the job released first', async () => {
    const { plan } = await run(inst, 'fifo');
    assert.deepEqual(plan.rejected, ['b']);
  });

  test('EDF runs the job with the tighter deadline', async () => {
    const { plan } = await run(inst, 'edf');
    assert.deepEqual(plan.rejected, ['a']);
  });

  test('EDF puts jobs without a deadline last and FIFO ignores deadlines', async () => {
    const doc = oneCore('no-deadline', 8, [
      { id: 'free', release: 0, deadline: 8, slots: 4 },
      { id: 'due', release: 0, deadline: 4, slots: 4 },
    ]);
    delete doc.jobs[0].deadlineSlot;
    const edf = await run(doc, 'edf');
    assert.equal(outcome(edf.kpis, 'due').endSlot, 4);
    const fifo = await run(doc, 'fifo');
    assert.equal(outcome(fifo.kpis, 'free').endSlot, 4, 'same release: instance order');
  });
});

describe('tps revenue decisions', () => {
  test('rejects a job that can only end late when late revenue is negative', async () => {
    const inst = oneCore('late-only', 10, [
      { id: 'hopeless', release: 0, deadline: 2, slots: 4, onTime: 10, late: -5 },
      { id: 'fine', release: 0, deadline: 10, slots: 3, onTime: 5, late: -1 },
    ]);
    const tps = await run(inst, 'tps');
    assert.deepEqual(tps.plan.rejected, ['hopeless']);
    assert.equal(tps.kpis.revenue, 5);
    const edf = await run(inst, 'edf');
    assert.equal(edf.kpis.revenue, 0, 'EDF runs it late and pays for it');
  });

  test('runs a job late when late revenue is not negative', async () => {
    const inst = oneCore('late-ok', 10, [{ id: 'slow', release: 0, deadline: 2, slots: 4, onTime: 10, late: 3 }]);
    const tps = await run(inst, 'tps');
    assert.deepEqual(tps.plan.rejected, []);
    assert.equal(tps.kpis.revenue, 3);
  });

  test('gives the contested capacity to the more valuable job', async () => {
    // Only one of the two can end by its deadline; EDF serves the cheap one (earlier deadline) first.
    const inst = oneCore('contested', 10, [
      { id: 'cheap', release: 0, deadline: 4, slots: 4, onTime: 10, late: -1 },
      { id: 'rich', release: 0, deadline: 5, slots: 4, onTime: 50, late: -1 },
    ]);
    const tps = await run(inst, 'tps');
    assert.equal(outcome(tps.kpis, 'rich').onTime, true);
    assert.deepEqual(tps.plan.rejected, ['cheap']);
    assert.equal(tps.kpis.revenue, 50);
    const edf = await run(inst, 'edf');
    assert.ok(edf.kpis.revenue < tps.kpis.revenue);
  });
});

describe('on the paper platform (6 seeds x {40, 80} jobs)', () => {
  test('tps earns more than EDF and FIFO and meets at least as many deadlines as FIFO', async () => {
    const mean: Record<string, { revenue: number; onTime: number }> = {};
    for (const s of STRATEGIES) mean[s] = { revenue: 0, onTime: 0 };
    let runs = 0;
    for (const jobs of [40, 80])
      for (let seed = 1; seed <= 6; seed++) {
        const inst = tpsPaperInstance({ jobs, seed });
        runs++;
        for (const s of STRATEGIES) {
          const { kpis } = await run(inst, s);
          mean[s].revenue += kpis.revenue;
          mean[s].onTime += kpis.onTimeJobs;
        }
      }
    for (const s of STRATEGIES) (mean[s].revenue /= runs), (mean[s].onTime /= runs);
    const table = JSON.stringify(mean);
    assert.ok(mean.tps.revenue > mean.edf.revenue, `tps vs edf revenue: ${table}`);
    assert.ok(mean.tps.revenue > mean.fifo.revenue, `tps vs fifo revenue: ${table}`);
    assert.ok(mean.tps.onTime >= mean.fifo.onTime, `tps vs fifo on-time jobs: ${table}`);
  });
});
