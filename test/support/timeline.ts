/**
 * Lays plans made on one cluster and forecast on one time line (issue 37, point 7): one merged instance with
 * every plan's jobs (renamed `<index>:<job>`), the cluster's nodes, the forecast's usage over the union of the
 * plans' windows and their safety margin, and one merged plan whose assignments are shifted by each plan's
 * window start. If the plans together overbook the cluster, the evaluator finds the merged plan infeasible.
 */
import assert from 'node:assert/strict';
import type { AssignmentDoc, InstanceDoc, JobSpec, PlanDoc } from '../../src/engine/model/types';
import { INSTANCE_FORMAT, PLAN_FORMAT } from '../../src/engine/model/types';
import { objectiveOf } from './random-instance';

/** A plan as the API gives it (its window) with the instance its solve solved (GET /v1/solves/{id}/instance). */
export interface PlacedPlan {
  window: { startsAt: string; slotSeconds: number; slots: number };
  plan: Pick<PlanDoc, 'assignments' | 'rejected'>;
  instance: InstanceDoc;
}

/** The forecast the plans were made on: slot 0 at startsAt, usage fractions per node and metric. */
export interface ForecastLine {
  startsAt: string;
  slotSeconds: number;
  usage: Record<string, Record<string, number[]>>;
}

export interface Timeline {
  instance: InstanceDoc;
  plan: PlanDoc;
  /** Per plan, the merged slot of its slot 0. */
  offsets: number[];
}

/**
 * The merged instance and plan. Throws (an assertion) when the plans cannot share one time line: different
 * slot lengths, windows off the slot boundaries, windows outside the forecast, different nodes, metrics or
 * margins, or an instance whose usage is not the forecast's over its window.
 */
export function layOnTimeline(placed: PlacedPlan[], forecast: ForecastLine): Timeline {
  assert.ok(placed.length > 0, 'no plans to lay on a time line');
  const slotSeconds = forecast.slotSeconds;
  const slotMs = slotSeconds * 1000;
  const f0 = Date.parse(forecast.startsAt);
  const forecastSlots = Math.min(...Object.values(forecast.usage).flatMap((per) => Object.values(per).map((s) => s.length)));
  const startMs = Math.min(...placed.map((p) => Date.parse(p.window.startsAt)));
  const endMs = Math.max(...placed.map((p) => Date.parse(p.window.startsAt) + p.window.slots * slotMs));
  const first = slotIndex(startMs - f0, slotMs, 'the earliest window start');
  const slots = slotIndex(endMs - startMs, slotMs, 'the union window');
  assert.ok(first >= 0 && first + slots <= forecastSlots, `the union window (forecast slots ${first}..${first + slots}) is outside the forecast's ${forecastSlots} slots`);

  const base = placed[0].instance;
  const usage = Object.fromEntries(
    Object.entries(forecast.usage).map(([node, per]) => [node, Object.fromEntries(Object.entries(per).map(([m, s]) => [m, s.slice(first, first + slots)]))]),
  );
  const jobs: JobSpec[] = [];
  const assignments: AssignmentDoc[] = [];
  const rejected: string[] = [];
  const offsets = placed.map((p, i) => {
    assert.equal(p.window.slotSeconds, slotSeconds, `plan ${i}: ${p.window.slotSeconds} s slots, the forecast's are ${slotSeconds} s`);
    assert.equal(p.instance.horizon.slots, p.window.slots, `plan ${i}: its instance's horizon is not its window`);
    assert.deepEqual(p.instance.nodes, base.nodes, `plan ${i} was made on other nodes`);
    assert.deepEqual(p.instance.metrics, base.metrics, `plan ${i} was made with other metrics`);
    assert.deepEqual(p.instance.safetyMargin, base.safetyMargin, `plan ${i} was made with another safety margin`);
    const offset = slotIndex(Date.parse(p.window.startsAt) - startMs, slotMs, `plan ${i}'s window start`);
    for (const [node, per] of Object.entries(p.instance.usage ?? {}))
      for (const [m, s] of Object.entries(per))
        assert.deepEqual(s, usage[node]?.[m]?.slice(offset, offset + p.window.slots), `plan ${i}: its usage of ${node}/${m} is not the forecast's over its window`);
    const name = (job: string) => `${i}:${job}`;
    for (const j of p.instance.jobs)
      jobs.push({
        ...j,
        id: name(j.id),
        ...(j.releaseSlot !== undefined ? { releaseSlot: j.releaseSlot + offset } : {}),
        ...(j.deadlineSlot !== undefined ? { deadlineSlot: j.deadlineSlot + offset } : {}),
      });
    for (const a of p.plan.assignments) assignments.push({ ...a, job: name(a.job), start: a.start + offset });
    rejected.push(...p.plan.rejected.map(name));
    return offset;
  });

  const instance: InstanceDoc = {
    format: INSTANCE_FORMAT,
    name: `timeline of ${placed.length} plans`,
    horizon: { slots, slotSeconds },
    metrics: base.metrics,
    ...(base.safetyMargin ? { safetyMargin: base.safetyMargin } : {}),
    nodes: base.nodes,
    ...(base.network ? { network: base.network } : {}),
    usage,
    jobs,
  };
  const plan: PlanDoc = { format: PLAN_FORMAT, instance: instance.name, strategy: 'timeline', assignments, rejected, objective: { scheduledTasks: 0, makespanSlots: 0 } };
  plan.objective = objectiveOf(instance, plan);
  return { instance, plan, offsets };
}

/** ms / slotMs as a whole number of slots (a window off the slot boundaries cannot be laid on the line). */
function slotIndex(ms: number, slotMs: number, what: string): number {
  const n = ms / slotMs;
  assert.ok(Number.isInteger(n), `${what} is ${n} slots from the time line's start: not a slot boundary`);
  return n;
}
