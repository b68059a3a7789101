/**
 * POSUM's provisioning and portfolio (seeds/002 sections V-VI): a leased node comes up after its start-up
 * delay and cannot be released before its minimum lease; the portfolio decides from the forecast only (a
 * different actual future leaves every earlier decision unchanged), the same for a seed, and picks the
 * member nearest the ideal point of the scores it simulated.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadInstance } from '../../src/engine/model/model';
import { InstanceDoc } from '../../src/engine/model/types';
import { PosumAllocationPolicy } from '../../src/engine/policies/posum/allocation';
import { ProvisioningPolicy } from '../../src/engine/policies/posum/provisioning';
import { PosumScore } from '../../src/engine/evaluate/posum-score';
import { choose } from '../../src/engine/policies/posum/choose';
import { evaluatePlan } from '../../src/engine/evaluate/evaluate';
import { solve } from '../../src/engine/solve';
import { lookAhead } from '../../src/engine/policies/posum/look-ahead';
import { MEMBERS } from '../../src/engine/policies/posum/params';
import { PortfolioPolicy } from '../../src/engine/policies/posum/posum-policy';
import { getQos } from '../../src/engine/qos';
import { portfolioParams, simulatePolicy } from '../../src/engine/simulation';
import { Provisioner, Simulator, TaskState } from '../../src/engine/simulate/simulator';
import { earliestEnd } from '../../src/engine/policies/posum/earliest-end';
import { ActualUsage } from '../../src/engine/simulate/usage';
import { BY_WORK } from '../support/work-limit';

const LEASE = { startupSeconds: 30, minLeaseSeconds: 300 };

function cluster(tasks: { id: string; seconds: number; n: number; deadlineSlot?: number; releaseSlot?: number }[], usage?: InstanceDoc['usage']): InstanceDoc {
  return {
    format: 'fallow.instance/v1',
    name: 'posum',
    horizon: { slots: 200, slotSeconds: 10 },
    metrics: ['cpu'],
    nodes: [
      { id: 'f1', capacity: { cpu: 1 } },
      { id: 'f2', capacity: { cpu: 1 } },
      { id: 'l1', capacity: { cpu: 1 }, costPerHour: 3600, lease: LEASE },
      { id: 'l2', capacity: { cpu: 1 }, costPerHour: 3600, lease: LEASE },
    ],
    ...(usage ? { usage } : {}),
    jobs: tasks.map((t) => ({
      id: t.id,
      class: t.deadlineSlot === undefined ? 'batch' : 'deadline',
      ...(t.deadlineSlot === undefined ? {} : { deadlineSlot: t.deadlineSlot }),
      ...(t.releaseSlot === undefined ? {} : { releaseSlot: t.releaseSlot }),
      stages: [{ id: 's', tasks: t.n, demand: { cpu: 1 }, durationSeconds: t.seconds }],
    })),
  };
}

/** LOCF on the model, with a provisioner that calls `decide` every 50 s. */
function withProbe(model: ReturnType<typeof loadInstance>, decide: Provisioner['decide']) {
  const sim = new Simulator(model, new ActualUsage(model, undefined), new PosumAllocationPolicy(model, 'locf'), { qos: getQos('none'), provisioner: { name: 'probe', periodSeconds: 50, decide } });
  return { sim, r: sim.run() };
}

describe('POSUM provisioning', () => {
  test('a leased node runs tasks only after its start-up delay, and is paid from its lease', () => {
    const model = loadInstance(cluster([{ id: 'j', seconds: 100, n: 4 }]));
    const sim = new Simulator(model, new ActualUsage(model, undefined), new PosumAllocationPolicy(model, 'locf'), {
      qos: getQos('none'),
      provisioner: new ProvisioningPolicy(model, 'plus-x', { x: 2, periodSeconds: 60, maxBoundedSlowdown: 4, minExecutionSeconds: 10 }),
    });
    const r = sim.run();
    // Two tasks on the fixed nodes at 0, two on the leased ones once they are up at 30 s.
    assert.deepEqual(Array.from(sim.startedAt).sort((a, b) => a - b), [0, 0, 30, 30]);
    assert.equal(r.makespanSeconds, 130);
    // Leased from 0 to the end (130 s) at 3600 per hour: 130 each.
    assert.equal(r.score.c, 260);
  });

  test('a leased node is released only when idle and after its minimum lease', () => {
    const model = loadInstance(cluster([{ id: 'j', seconds: 400, n: 1 }]));
    const log: [number, boolean][] = [];
    const probe: Provisioner = {
      name: 'probe',
      periodSeconds: 50,
      decide: (sim) => {
        if (sim.now === 0) sim.leaseNode(2);
        else if (sim.leasedAt[2] >= 0) log.push([sim.now, sim.releaseNode(2)]);
      },
    };
    const sim = new Simulator(model, new ActualUsage(model, undefined), new PosumAllocationPolicy(model, 'locf'), { qos: getQos('none'), provisioner: probe });
    const r = sim.run();
    assert.deepEqual(log, [[50, false], [100, false], [150, false], [200, false], [250, false], [300, true]]);
    // 300 s of lease at 3600 per hour, and the task ran on a fixed node.
    assert.equal(r.score.c, 300);
  });

  test('a busy node a policy wants gone drains: no new task once its minimum lease is over, released when its last task leaves', () => {
    // Two fixed nodes and l1: 'long' runs 500-s tasks on all three; 'later' (released at 100 s) queues 60-s tasks.
    const model = loadInstance(cluster([{ id: 'long', seconds: 500, n: 3 }, { id: 'later', seconds: 60, n: 6, releaseSlot: 10 }]));
    const l1 = 2;
    const { sim, r } = withProbe(model, (sim) => {
      if (sim.now === 0) sim.leaseNode(l1);
      if (sim.now === 100) assert.equal(sim.drainNode(l1), true); // busy: drained, not released
    });
    const onL1 = (job: number) => Array.from({ length: model.jobs[job].taskCount }, (_, t) => model.jobs[job].firstTask + t).filter((i) => sim.node[i] === l1);
    assert.equal(onL1(0).length, 1, "one of long's tasks ran on l1 (up at 30 s, until 530 s)");
    assert.deepEqual(onL1(1), [], 'l1 took none of the later tasks: it was draining past its minimum lease when they could start');
    // Paid from 0 until its task ended at 530 s (3600 per hour: 530), and never again.
    assert.equal(r.score.c, 530);
    assert.equal(sim.leasedAt[l1], -1);
  });

  test('a draining node is taken back when the policy wants more nodes again, without a new lease', () => {
    const model = loadInstance(cluster([{ id: 'long', seconds: 500, n: 3 }]));
    const l1 = 2;
    const { sim } = withProbe(model, (sim) => {
      if (sim.now === 0) sim.leaseNode(l1);
      if (sim.now === 100) sim.drainNode(l1);
      if (sim.now === 150) {
        assert.equal(sim.leaseNode(l1), false, 'still leased: nothing to lease');
        assert.equal(sim.undrainNode(l1), true);
      }
    });
    assert.equal(sim.draining[l1], 0);
    assert.equal(sim.leasedAt[l1], 0, 'the same lease, kept to the end');
  });
});

describe('POSUM portfolio', () => {
  const JOBS = [
    { id: 'd1', seconds: 60, n: 6, deadlineSlot: 15 },
    { id: 'b1', seconds: 30, n: 8 },
    { id: 'd2', seconds: 40, n: 4, deadlineSlot: 30, releaseSlot: 10 },
    { id: 'b2', seconds: 90, n: 3, releaseSlot: 20 },
  ];
  const flat = (x: number) => Array(200).fill(x);
  const forecast = { f1: { cpu: flat(0) }, f2: { cpu: flat(0) } };
  const params = portfolioParams({ periodSeconds: 60, lookAheadSeconds: 300 });

  test('decides every period among the 16 members, the one nearest the ideal point, the same for a seed', () => {
    const model = loadInstance(cluster(JOBS, forecast));
    const a = simulatePolicy(model, 'posum', { qos: 'none', seed: 3, posum: params });
    const b = simulatePolicy(model, 'posum', { qos: 'none', seed: 3, posum: params });
    assert.equal(a.unfinishedJobs, 0);
    assert.ok(a.decisions!.length >= 2, `${a.decisions!.length} decisions`);
    for (const d of a.decisions!) {
      assert.equal(d.scores.length, MEMBERS.length);
      const best = choose(d.scores, params.weights);
      assert.deepEqual(d.choice, { allocation: d.scores[best.index].allocation, provisioning: d.scores[best.index].provisioning });
    }
    const strip = (r: typeof a) => ({ ...r, elapsedMs: 0, decisions: r.decisions!.map((d) => ({ ...d, elapsedMs: 0 })) });
    assert.deepEqual(strip(a), strip(b));
    assert.ok(typeof a.fc === 'number' && a.provisioning === 'posum');
  });

  test('never reads the actual future: a different actual load from 120 s on leaves the decisions before it unchanged', () => {
    const model = loadInstance(cluster(JOBS, forecast));
    const actual = (later: number) => ({ f1: { cpu: flat(0).map((x, t) => (t >= 12 ? later : x)) }, f2: { cpu: flat(0) } });
    const calm = simulatePolicy(model, 'posum', { qos: 'none', seed: 1, posum: params, actual: actual(0) });
    const busy = simulatePolicy(model, 'posum', { qos: 'none', seed: 1, posum: params, actual: actual(0.9) });
    const before = (r: typeof calm) => r.decisions!.filter((d) => d.timeSeconds < 120).map((d) => ({ ...d, elapsedMs: 0 }));
    assert.ok(before(calm).length >= 2);
    assert.deepEqual(before(busy), before(calm));
    assert.notDeepEqual(busy.score, calm.score, 'the actual load did matter later');
  });

  test('Fallow\'s ls may join as a seventeenth member: planned, replayed, and followed when chosen', () => {
    const model = loadInstance(cluster(JOBS, forecast));
    const r = simulatePolicy(model, 'posum', { qos: 'none', seed: 2, posum: { ...params, lsMember: true, lookAheadMode: 'rebuild', lsBudgetMs: 50 } });
    assert.equal(r.unfinishedJobs, 0);
    for (const d of r.decisions!) {
      assert.equal(d.scores.length, 17);
      assert.equal(d.scores[16].allocation, 'ls-plan');
    }
  });

  test('strategy portfolio: the best member\'s job order as a feasible plan, every member\'s P in its stats', async () => {
    const model = loadInstance(cluster(JOBS, forecast));
    // By work: the strategy stops scoring members at its deadline, and all 16 are asserted.
    const plan = await solve(model, { strategy: 'portfolio', ...BY_WORK, seed: 1 });
    const e = evaluatePlan(model, plan);
    assert.ok(e.ok, e.violations.join('; '));
    const stats = plan.stats as { member: { allocation: string; provisioning: string }; members: (PosumScore & { allocation: string; provisioning: string; distance: number })[] };
    assert.equal(stats.members.length, 16);
    const best = choose(stats.members);
    assert.deepEqual(stats.member, { allocation: stats.members[best.index].allocation, provisioning: stats.members[best.index].provisioning });
    assert.equal(plan.objective.scheduledTasks, model.nTasks);
  });

  test('a job the look-ahead leaves unfinished ends no earlier than its running tasks and the stages after them allow', () => {
    const doc = cluster([]);
    doc.nodes[1].speed = 2; // the fastest node: what the stages not launched yet are timed at
    doc.jobs = [
      { id: 'long', stages: [{ id: 'map', tasks: 1, demand: { cpu: 1 }, durationSeconds: 3000 }, { id: 'reduce', tasks: 2, after: ['map'], demand: { cpu: 1 }, work: 400 }] },
      { id: 'short', stages: [{ id: 'map', tasks: 1, demand: { cpu: 1 }, durationSeconds: 50 }] },
    ];
    const model = loadInstance(doc);
    // Stops after one window (2000 s) with the long map still running.
    const sim = new Simulator(model, new ActualUsage(model, undefined), new PosumAllocationPolicy(model, 'locf'), { qos: getQos('none'), maxWindows: 1 });
    sim.run();
    assert.ok(sim.now <= 2000 + 1e-9 && sim.state[0] !== TaskState.Done, 'the map is still running');
    // The map ends at 3000 s, then the reduces (400 GFLOP at speed 2: 200 s) at the earliest.
    assert.equal(earliestEnd(model, sim, 0), 3200);
    assert.equal(earliestEnd(model, sim, 1), sim.now, 'an ended job: now');
  });

  test('strategy portfolio weighs its members with the solve\'s scoreWeights: cost alone and deadlines alone choose differently', async () => {
    const model = loadInstance(cluster(JOBS, forecast));
    type Stats = { weights: { alpha: number; beta: number; gamma: number }; member: { allocation: string; provisioning: string }; members: (PosumScore & { allocation: string; provisioning: string })[] };
    const chosen = async (w: { alpha: number; beta: number; gamma: number }) => {
      const stats = (await solve(model, { strategy: 'portfolio', ...BY_WORK, seed: 1, scoreWeights: w })).stats as Stats;
      assert.equal(stats.members.length, 16, 'every member scored');
      assert.deepEqual(stats.weights, w);
      return { stats, member: stats.members.find((m) => m.allocation === stats.member.allocation && m.provisioning === stats.member.provisioning)! };
    };
    const cost = await chosen({ alpha: 0, beta: 0, gamma: 1 });
    const deadlines = await chosen({ alpha: 1, beta: 0, gamma: 0 });
    assert.equal(cost.member.c, Math.min(...cost.stats.members.map((m) => m.c)));
    assert.equal(deadlines.member.vd, Math.min(...deadlines.stats.members.map((m) => m.vd)));
    // On this instance leasing buys deadlines: the cheapest member is late, the most punctual one pays.
    assert.ok(deadlines.member.c > cost.member.c && cost.member.vd > deadlines.member.vd, JSON.stringify([cost.member, deadlines.member]));
  });

  test('the look-ahead runs on the forecast: with the fixed nodes forecast full, members that lease nothing predict late deadline jobs', () => {
    const full = { f1: { cpu: flat(1) }, f2: { cpu: flat(1) } };
    const first = (usage: InstanceDoc['usage']) => simulatePolicy(loadInstance(cluster(JOBS, usage)), 'posum', { qos: 'none', seed: 1, posum: params }).decisions![0];
    const busy = first(full);
    const idle = first(forecast);
    busy.scores.forEach((s, n) => {
      if (s.provisioning === 'minus-x') assert.ok(s.vd > idle.scores[n].vd, `${s.allocation}/minus-x predicts V_D ${s.vd} on full nodes, ${idle.scores[n].vd} on idle ones`);
    });
    assert.notEqual(busy.choice.provisioning, 'minus-x');
  });

  test('the look-ahead knows the submitted jobs only; with echoArrivals the last look-ahead\'s arrivals repeat', () => {
    const model = loadInstance(cluster(JOBS, forecast));
    const at = (seconds: number, echo: boolean) => {
      const sim = new Simulator(model, new ActualUsage(model, undefined), new PosumAllocationPolicy(model, 'edls-sh'), { qos: getQos('none') });
      sim.now = seconds;
      const present = lookAhead(model, sim, 300, echo)!;
      return present.model.doc.jobs.map((j) => `${j.id}@${j.releaseSlot ?? 0}`);
    };
    assert.deepEqual(at(0, false), ['d1@0', 'b1@0']);
    assert.deepEqual(at(150, false), ['d1@0', 'b1@0', 'd2@0']);
    // d2 arrived at 100 s, within the last 300 s: a copy of it is expected at 400 s, 25 slots from 150 s.
    assert.deepEqual(at(150, true), ['d1@0', 'b1@0', 'd2@0', 'd1-echo-0@15', 'b1-echo-1@15', 'd2-echo-2@25']);
  });

  test('a node leased now stays releasable in the look-ahead, with what is left of its start-up and minimum lease', () => {
    const model = loadInstance(cluster(JOBS, forecast));
    const sim = new Simulator(model, new ActualUsage(model, undefined), new PosumAllocationPolicy(model, 'edls-sh'), { qos: getQos('none') });
    assert.ok(sim.leaseNode(2));
    sim.now = 100;
    const present = lookAhead(model, sim, 300, false)!;
    assert.deepEqual(present.leased, [2]);
    assert.deepEqual(present.model.doc.nodes[2].lease, { startupSeconds: 0, minLeaseSeconds: 200 });
    assert.deepEqual(present.model.doc.nodes[3].lease, LEASE);
    assert.equal(present.model.doc.nodes[0].lease, undefined);
  });

  test('bad parameters are refused', () => {
    const model = loadInstance(cluster(JOBS));
    assert.throws(() => new PortfolioPolicy(model, { ...params, periodSeconds: 0 }), /periodSeconds/);
    assert.throws(() => new PortfolioPolicy(model, { ...params, allocation: { delta: -0.1, minExecutionSeconds: 10 } }), /delta/);
  });
});
