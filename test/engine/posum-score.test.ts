/**
 * POSUM's score (seeds/002 Table I) and its comparison (Eq. 5) on hand-computed cases, and the same score
 * in a plan's KPIs and in the simulation report of that plan.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { evaluatePlan } from '../../src/engine/evaluate/evaluate';
import { loadInstance } from '../../src/engine/model/model';
import { InstanceDoc } from '../../src/engine/model/types';
import { fc, posumScore, scoreParamIssues } from '../../src/engine/evaluate/posum-score';
import { choose } from '../../src/engine/policies/posum/choose';
import { simulatePlan } from '../../src/engine/simulation';
import { solve } from '../../src/engine/solve';
import { BY_WORK } from '../support/work-limit';

describe('POSUM score', () => {
  test('Table I: V_D, S_B and C by hand', () => {
    const s = posumScore(
      [
        // Deadline jobs: 30 s late (900), on time (0): V_D = 900 / 2.
        { deadlineJob: true, releaseSeconds: 0, endSeconds: 130, deadlineSeconds: 100, taskSeconds: 50 },
        { deadlineJob: true, releaseSeconds: 10, endSeconds: 40, deadlineSeconds: 50, taskSeconds: 20 },
        // Batch jobs: 60 s over 30 s of tasks (2); 5 s over 2 s of tasks, bounded by MinE 10 (0.5).
        { deadlineJob: false, releaseSeconds: 0, endSeconds: 60, deadlineSeconds: null, taskSeconds: 30 },
        { deadlineJob: false, releaseSeconds: 0, endSeconds: 5, deadlineSeconds: null, taskSeconds: 2 },
        // Not ended: runs until now (200 s) over 40 s of tasks (5).
        { deadlineJob: false, releaseSeconds: 0, endSeconds: null, deadlineSeconds: null, taskSeconds: 40 },
      ],
      [
        { uptimeSeconds: 7200, costPerHour: 1.5 },
        { uptimeSeconds: 3600, costPerHour: 2 },
      ],
      200,
    );
    assert.deepEqual(s, { vd: 450, sb: 7.5, c: 5 });
  });

  test('Eq. 5 and the choice among many: the nearest to the best of each component, weighted', () => {
    const a = { vd: 0, sb: 10, c: 5 };
    const b = { vd: 5, sb: 2, c: 5 };
    const c = { vd: 1, sb: 3, c: 5 };
    assert.equal(fc(a, b), 13);
    assert.equal(fc(a, b, { alpha: 2, beta: 0.5, gamma: 1 }), 14);
    // Ideal (0, 2, 5): distances 8, 5, 2.
    assert.deepEqual(choose([a, b, c]), { index: 2, distances: [8, 5, 2], ideal: { vd: 0, sb: 2, c: 5 } });
    // Deadlines ten times as costly: a (8) beats c (10 + 1).
    assert.equal(choose([a, b, c], { alpha: 10, beta: 1, gamma: 1 }).index, 0);
    // A tie goes to the earlier candidate.
    assert.equal(choose([b, b]).index, 0);
    assert.deepEqual(scoreParamIssues({ alpha: -1, beta: 1, gamma: Number.NaN }, 0).map((i) => i.path), ['alpha', 'gamma', 'minExecutionSeconds']);
  });

  test('a plan carries its score, and its simulation (as planned) has the same one', async () => {
    const doc: InstanceDoc = {
      format: 'fallow.instance/v1',
      name: 'score',
      horizon: { slots: 20, slotSeconds: 10 },
      metrics: ['cpu'],
      nodes: [{ id: 'n', capacity: { cpu: 1 }, costPerHour: 36 }],
      jobs: [
        // Two 10-s tasks one after the other, due after 10 s: 10 s late, V_D = 100.
        { id: 'd', class: 'deadline', deadlineSlot: 1, stages: [{ id: 's', tasks: 2, demand: { cpu: 1 }, durationSeconds: 10 }] },
        // One 10-s task released at 20 s, after them: it ends at 30 s, 10 s over 10 s of work: S_B = 1.
        { id: 'b', class: 'batch', releaseSlot: 2, stages: [{ id: 's', tasks: 1, demand: { cpu: 1 }, durationSeconds: 10 }] },
      ],
    };
    const model = loadInstance(doc);
    const plan = await solve(model, { strategy: 'rffd', ...BY_WORK, seed: 1 });
    const e = evaluatePlan(model, plan);
    assert.ok(e.ok, e.violations.join('; '));
    // 30 s of uptime at 36 per hour: C = 0.3.
    assert.deepEqual(e.kpis.score, { vd: 100, sb: 1, c: 0.3 });
    const r = simulatePlan(model, plan, { qos: 'none' });
    assert.deepEqual(r.score, e.kpis.score);
  });
});
