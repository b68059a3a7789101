/**
 * What changed from one plan to another (src/engine/replan/diff.ts): moved, added and dropped tasks, each job's
 * end and revenue, the totals, on a hand-made pair of plans whose instances differ (a job only the second has).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadInstance } from '../../src/engine/model/model';
import type { InstanceDoc, JobSpec, PlanDoc } from '../../src/engine/model/types';
import { planDiff } from '../../src/engine/replan/diff';
import { at } from '../support/fixtures';

const J1: JobSpec = {
  id: 'j1',
  deadlineSlot: 3,
  revenue: { onTime: 10, late: 2 },
  stages: [
    { id: 'map', tasks: 3, demand: { cpu: 1 }, durationSeconds: 1200 },
    { id: 'reduce', tasks: 1, after: ['map'], demand: { cpu: 1 }, durationSeconds: 600 },
  ],
};
const J2: JobSpec = { id: 'j2', revenue: { onTime: 5 }, stages: [{ id: 'run', tasks: 2, demand: { cpu: 1 }, durationSeconds: 600 }] };
const J3: JobSpec = { id: 'j3', revenue: { onTime: 7 }, stages: [{ id: 'run', tasks: 1, demand: { cpu: 2 }, durationSeconds: 1800 }] };

function instance(jobs: JobSpec[], revenue = true): InstanceDoc {
  return {
    format: 'fallow.instance/v1',
    name: 'diffed',
    horizon: { slots: 12, slotSeconds: 600 },
    metrics: ['cpu'],
    nodes: [
      { id: 'n1', capacity: { cpu: 4 } },
      { id: 'n2', capacity: { cpu: 4 } },
    ],
    jobs: revenue ? jobs : jobs.map(({ revenue: _, deadlineSlot: __, ...j }) => j),
  };
}

function plan(assignments: string[], rejected: string[] = []): PlanDoc {
  return { format: 'fallow.plan/v1', instance: 'diffed', strategy: 'hand', assignments: assignments.map(at), rejected, objective: { scheduledTasks: assignments.length, makespanSlots: 0 } };
}

const BEFORE = plan(['j1/map/0@n1:0', 'j1/map/1@n1:0', 'j1/map/2@n2:0', 'j1/reduce/0@n1:2', 'j2/run/0@n2:2', 'j2/run/1@n2:3']);
/** map/1 moved to n2 at 2, the reduce after it to 4 (j1 now late), j2 dropped, j3 added. */
const AFTER = plan(['j1/map/0@n1:0', 'j1/map/1@n2:2', 'j1/map/2@n2:0', 'j1/reduce/0@n1:4', 'j3/run/0@n1:5'], ['j2']);

describe('plan diff', () => {
  test('moved, added, dropped and kept tasks, changed jobs, makespan and revenue', () => {
    const d = planDiff({ model: loadInstance(instance([J1, J2])), plan: BEFORE }, { model: loadInstance(instance([J1, J2, J3])), plan: AFTER });
    assert.deepEqual(d.counts, { moved: 2, added: 1, dropped: 2, kept: 2, jobsChanged: 3 });
    assert.deepEqual(d.moved, [
      { job: 'j1', stage: 'map', task: 1, before: { node: 'n1', start: 0, end: 2 }, after: { node: 'n2', start: 2, end: 4 } },
      { job: 'j1', stage: 'reduce', task: 0, before: { node: 'n1', start: 2, end: 3 }, after: { node: 'n1', start: 4, end: 5 } },
    ]);
    assert.deepEqual(d.added, [{ job: 'j3', stage: 'run', task: 0, node: 'n1', start: 5, end: 8 }]);
    assert.deepEqual(d.dropped, [
      { job: 'j2', stage: 'run', task: 0, node: 'n2', start: 2, end: 3 },
      { job: 'j2', stage: 'run', task: 1, node: 'n2', start: 3, end: 4 },
    ]);
    assert.deepEqual(d.jobs, [
      { job: 'j1', before: { accepted: true, endSlot: 3, revenue: 10 }, after: { accepted: true, endSlot: 5, revenue: 2 }, endChange: 2 },
      { job: 'j2', before: { accepted: true, endSlot: 4, revenue: 5 }, after: { accepted: false, endSlot: null, revenue: 0 }, endChange: null },
      { job: 'j3', before: null, after: { accepted: true, endSlot: 8, revenue: 7 }, endChange: null },
    ]);
    assert.deepEqual(d.makespan, { before: 4, after: 8 });
    assert.deepEqual(d.revenue, { before: 15, after: 9, change: -6 });
    assert.equal(d.truncated, false);
  });

  test('a plan against itself changes nothing; without revenue functions the revenue is null', () => {
    const model = loadInstance(instance([J1, J2], false));
    const d = planDiff({ model, plan: BEFORE }, { model, plan: BEFORE });
    assert.deepEqual(d.counts, { moved: 0, added: 0, dropped: 0, kept: 6, jobsChanged: 0 });
    assert.equal(d.revenue, null);
  });

  test('limit cuts the lists, never the counts', () => {
    const d = planDiff({ model: loadInstance(instance([J1, J2])), plan: BEFORE }, { model: loadInstance(instance([J1, J2, J3])), plan: AFTER }, 1);
    assert.deepEqual([d.moved.length, d.added.length, d.dropped.length, d.jobs.length], [1, 1, 1, 1]);
    assert.deepEqual(d.counts, { moved: 2, added: 1, dropped: 2, kept: 2, jobsChanged: 3 });
    assert.equal(d.truncated, true);
  });

  test("a plan of a window starting a slot earlier is read in the other's slots", () => {
    const model = loadInstance(instance([J1, J2]));
    const shifted = plan(['j1/map/0@n1:1', 'j1/map/1@n1:1', 'j1/map/2@n2:1', 'j1/reduce/0@n1:3', 'j2/run/0@n2:3', 'j2/run/1@n2:4']);
    // BEFORE's slot t is the shifted window's slot t - 1: the same tasks at the same times.
    const d = planDiff({ model, plan: shifted, offsetSlots: -1 }, { model, plan: BEFORE });
    assert.deepEqual(d.counts, { moved: 0, added: 0, dropped: 0, kept: 6, jobsChanged: 1 });
    // j1's deadline is slot 3 of each plan's own window: ending at 4 of its own it was late there, on time in BEFORE.
    assert.deepEqual(d.jobs, [{ job: 'j1', before: { accepted: true, endSlot: 3, revenue: 2 }, after: { accepted: true, endSlot: 3, revenue: 10 }, endChange: 0 }]);
  });
});
