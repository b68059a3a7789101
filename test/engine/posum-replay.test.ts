/**
 * POSUM's replayed look-ahead (engine/policies/posum/replay.ts). Its promise is exactness: replaying the workload known
 * so far from time 0 with POSUM's past choices reaches the live state. Exact look-aheads make switching a
 * policy improvement: when every job is known at time 0, the load is as forecast and the look-ahead reaches the
 * window's end, the member chosen at time 0 is the best member, and every later switch can only improve on
 * continuing, so POSUM ends no worse than its best member. The rebuilt look-ahead (running tasks turned into
 * load) breaks that on some of these instances; a replay that drifted from the live state would too.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadInstance } from '../../src/engine/model/model';
import { InstanceDoc, JobSpec } from '../../src/engine/model/types';
import { PosumAllocationPolicy } from '../../src/engine/policies/posum/allocation';
import { MEMBERS } from '../../src/engine/policies/posum/params';
import { PortfolioPolicy } from '../../src/engine/policies/posum/posum-policy';
import { replayInstance } from '../../src/engine/policies/posum/replay';
import { portfolioFromRequest, portfolioRequestIssues } from '../../src/engine/policies/posum/request';
import { getQos } from '../../src/engine/qos';
import { Random } from '../../src/engine/random';
import { portfolioParams, simulatePolicy } from '../../src/engine/simulation';
import { Simulator } from '../../src/engine/simulate/simulator';
import { ActualUsage } from '../../src/engine/simulate/usage';

const SLOTS = 200;
const SLOT = 10;

/** 4 fixed nodes under a random load and 2 leasable ones; 10 jobs of maps (and reduces), half with deadlines. */
function instance(seed: number, released: 'at-zero' | 'spread'): InstanceDoc {
  const rng = new Random(seed);
  const load = () => Array.from({ length: SLOTS }, (_, t) => Math.min(0.9, Math.max(0, 0.3 + 0.3 * Math.sin((t + seed * 7) / 15) + 0.2 * (rng.next() - 0.5))));
  const jobs: JobSpec[] = Array.from({ length: 10 }, (_, n) => {
    const maps = 1 + rng.int(6);
    const mapSeconds = 20 + 10 * rng.int(8);
    const stages: JobSpec['stages'] = [{ id: 'map', tasks: maps, demand: { cpu: 1, ram: 1 }, durationSeconds: mapSeconds }];
    if (rng.next() < 0.6) stages.push({ id: 'reduce', tasks: 1 + rng.int(2), demand: { cpu: 1, ram: 2 }, after: ['map'], durationSeconds: 30 + 10 * rng.int(6) });
    const releaseSlot = released === 'at-zero' ? 0 : rng.int(30);
    const deadline = n % 2 === 0 ? releaseSlot + 6 + rng.int(20) : null;
    return { id: `j${n}`, class: deadline === null ? 'batch' : 'deadline', releaseSlot, ...(deadline !== null ? { deadlineSlot: deadline } : {}), stages };
  });
  return {
    format: 'fallow.instance/v1',
    name: `replay-${seed}`,
    horizon: { slots: SLOTS, slotSeconds: SLOT },
    metrics: ['cpu', 'ram'],
    nodes: [
      ...Array.from({ length: 4 }, (_, k) => ({ id: `f${k}`, capacity: { cpu: 4, ram: 8 }, costPerHour: 1 })),
      ...Array.from({ length: 2 }, (_, k) => ({ id: `l${k}`, capacity: { cpu: 4, ram: 8 }, costPerHour: 4, lease: { startupSeconds: 20, minLeaseSeconds: 120 } })),
    ],
    usage: Object.fromEntries(Array.from({ length: 4 }, (_, k) => [`f${k}`, { cpu: load(), ram: load() }])),
    jobs,
  };
}

const WEIGHTS = { alpha: 1 / 100, beta: 1, gamma: 1 };
const fcOf = (s: { vd: number; sb: number; c: number }) => WEIGHTS.alpha * s.vd + WEIGHTS.beta * s.sb + WEIGHTS.gamma * s.c;

describe('POSUM: the replayed look-ahead', () => {
  test('with everything known, POSUM ends no worse than its best member (exact look-aheads); the rebuilt look-ahead does not always', () => {
    let rebuildWorse = 0;
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const model = loadInstance(instance(seed, 'at-zero'));
      // A look-ahead past every job's end (a run may go on after the window: up to 10 of them).
      const params = portfolioParams({ weights: WEIGHTS, periodSeconds: 60, lookAheadSeconds: 10 * SLOTS * SLOT });
      const best = Math.min(...MEMBERS.map((m) => simulatePolicy(model, m.allocation, { qos: 'salamander', seed: 1, provision: m.provisioning, posum: params }).fc!));
      const replay = simulatePolicy(model, 'posum', { qos: 'salamander', seed: 1, posum: params });
      assert.ok(replay.decisions!.length >= 3, `seed ${seed}: ${replay.decisions!.length} decisions`);
      assert.ok(replay.fc! <= best + 1e-9, `seed ${seed}: POSUM ${replay.fc} against its best member ${best}`);
      // Exact: each decision predicts what its choice goes on to do, so the predictions never rise, and the last
      // one (nothing is switched after it) is the run's own score.
      const predicted = replay.decisions!.map((d) => fcOf(d.scores.find((s) => s.allocation === d.choice.allocation && s.provisioning === d.choice.provisioning)!));
      predicted.forEach((f, n) => n > 0 && assert.ok(f <= predicted[n - 1] + 1e-9, `seed ${seed}: decision ${n} predicts ${f}, after ${predicted[n - 1]}`));
      assert.ok(Math.abs(predicted[predicted.length - 1] - replay.fc!) < 1e-3, `seed ${seed}: the last decision predicted ${predicted[predicted.length - 1]}, the run scored ${replay.fc}`);
      const rebuilt = simulatePolicy(model, 'posum', { qos: 'salamander', seed: 1, posum: { ...params, lookAheadMode: 'rebuild' } });
      if (rebuilt.fc! > best + 1e-9) rebuildWorse++;
    }
    assert.ok(rebuildWorse > 0, 'the rebuilt look-ahead matched its best member everywhere: these instances no longer tell the two apart');
  });

  test('jobs arriving over time: once all have arrived, each decision predicts what its choice goes on to do', () => {
    let switched = 0;
    for (const seed of [11, 12, 13, 14, 15, 16]) {
      const doc = instance(seed, 'spread');
      const model = loadInstance(doc);
      const lastRelease = Math.max(...doc.jobs.map((j) => (j.releaseSlot ?? 0) * SLOT));
      const r = simulatePolicy(model, 'posum', { qos: 'salamander', seed: 1, posum: portfolioParams({ weights: WEIGHTS, periodSeconds: 60, lookAheadSeconds: 10 * SLOTS * SLOT }) });
      const after = r.decisions!.filter((d) => d.timeSeconds >= lastRelease);
      if (new Set(r.decisions!.map((d) => `${d.choice.allocation}/${d.choice.provisioning}`)).size > 1) switched++;
      if (after.length === 0) continue;
      const predicted = after.map((d) => fcOf(d.scores.find((s) => s.allocation === d.choice.allocation && s.provisioning === d.choice.provisioning)!));
      predicted.forEach((f, n) => n > 0 && assert.ok(f <= predicted[n - 1] + 1e-9, `seed ${seed}: decision at ${after[n].timeSeconds} s predicts ${f}, after ${predicted[n - 1]}`));
      assert.ok(Math.abs(predicted[predicted.length - 1] - r.fc!) < 1e-3, `seed ${seed}: the last decision predicted ${predicted[predicted.length - 1]}, the run scored ${r.fc}`);
    }
    assert.ok(switched >= 2, `POSUM switched in ${switched} of 6 runs: too few for the past choices to matter`);
  });

  test('the replay at a decision: the jobs submitted so far (and echoes), the load observed up to now, the forecast after', () => {
    const doc = instance(7, 'spread');
    const model = loadInstance(doc);
    const observed = Object.fromEntries(Object.entries(doc.usage!).map(([id, u]) => [id, { cpu: u.cpu.map((x) => x / 2), ram: u.ram }]));
    const live = new Simulator(model, new ActualUsage(model, observed), new PosumAllocationPolicy(model, 'edls-sh'), { qos: getQos('none'), stopAtSeconds: 150 });
    live.run();
    assert.equal(live.now, 150);
    const submitted = doc.jobs.filter((j) => (j.releaseSlot ?? 0) * SLOT <= 150).map((j) => j.id);
    const plain = replayInstance(model, live, 100, false)!;
    assert.deepEqual(plain.model.doc.jobs.map((j) => j.id), submitted);
    const echoed = replayInstance(model, live, 100, true)!;
    const recent = doc.jobs.filter((j) => (j.releaseSlot ?? 0) * SLOT <= 150 && (j.releaseSlot ?? 0) * SLOT > 50);
    assert.deepEqual(echoed.model.doc.jobs.map((j) => j.id), [...submitted, ...recent.map((j) => `${j.id}-echo`)]);
    echoed.model.doc.jobs.slice(submitted.length).forEach((j, n) => assert.equal(j.releaseSlot, (recent[n].releaseSlot ?? 0) + 10));
    // Slot 15 starts at 150 s: observed up to it, forecast after.
    const cpu = plain.model.doc.usage!.f0.cpu;
    for (const t of [0, 7, 15]) assert.equal(cpu[t], observed.f0.cpu[t]);
    for (const t of [16, 40]) assert.equal(cpu[t], doc.usage!.f0.cpu[t]);
  });

  test('lookAheadMode: one of replay and rebuild; the ls member takes rebuild, and is refused with replay', () => {
    assert.deepEqual(portfolioRequestIssues({ lookAheadMode: 'exact' }).map((i) => i.path), ['lookAheadMode']);
    assert.deepEqual(portfolioRequestIssues({ lsMember: true, lookAheadMode: 'replay' }).map((i) => i.path), ['lookAheadMode']);
    assert.equal(portfolioFromRequest({}).lookAheadMode, 'replay');
    assert.equal(portfolioFromRequest({ lsMember: true }).lookAheadMode, 'rebuild');
    assert.equal(portfolioFromRequest({ lookAheadMode: 'rebuild' }).lookAheadMode, 'rebuild');
    // Echoed arrivals: off with the replay, on with the rebuilt look-ahead, unless given.
    assert.equal(portfolioFromRequest({}).echoArrivals, false);
    assert.equal(portfolioFromRequest({ lsMember: true }).echoArrivals, true);
    assert.equal(portfolioFromRequest({ lookAheadMode: 'rebuild', echoArrivals: false }).echoArrivals, false);
    assert.equal(portfolioParams({ lookAheadMode: 'rebuild' }).echoArrivals, true);
    assert.equal(portfolioParams({}).echoArrivals, false);
    // The look-ahead: to the end of the submitted work with the replay, 600 s with the rebuilt present, unless given.
    assert.deepEqual([portfolioFromRequest({}).lookAheadSeconds, portfolioFromRequest({ lsMember: true }).lookAheadSeconds, portfolioFromRequest({ lookAheadSeconds: 300 }).lookAheadSeconds], [86400, 600, 300]);
    assert.deepEqual([portfolioParams({}).lookAheadSeconds, portfolioParams({ lookAheadMode: 'rebuild' }).lookAheadSeconds], [86400, 600]);
    const model = loadInstance(instance(1, 'at-zero'));
    assert.throws(() => new PortfolioPolicy(model, { ...portfolioParams(), lsMember: true, lookAheadMode: 'replay' }), /ls member/);
  });

  test('decisions at every arrival as well as every period (decideOnArrival, the default), or every period only', () => {
    const doc = instance(21, 'spread');
    const model = loadInstance(doc);
    const period = 60;
    const run = (decideOnArrival: boolean) => simulatePolicy(model, 'posum', { qos: 'salamander', seed: 1, posum: portfolioParams({ weights: WEIGHTS, periodSeconds: period, decideOnArrival }) });
    const times = (r: ReturnType<typeof run>) => r.decisions!.map((d) => d.timeSeconds);
    const periodicRun = run(false);
    const periodic = times(periodicRun);
    assert.ok(periodic.every((t) => t % period === 0), `every period only: ${periodic}`);
    assert.ok(periodicRun.decisions!.every((d) => d.trigger === 'period'));
    const onArrival = run(true);
    const at = times(onArrival);
    // Between two periods only an arrival decides; the trail says so.
    for (const d of onArrival.decisions!) if (d.timeSeconds % period !== 0) assert.equal(d.trigger, 'arrival', `at ${d.timeSeconds} s`);
    assert.ok(onArrival.decisions!.some((d) => d.trigger === 'period'), 'the period decides too');
    // Each submission is decided on at its instant (a job arriving has tasks waiting), once per instant.
    const releases = [...new Set(doc.jobs.map((j) => (j.releaseSlot ?? 0) * SLOT))];
    for (const t of releases) assert.ok(at.includes(t), `no decision at the arrival at ${t} s: ${at}`);
    assert.ok(releases.some((t) => t % period !== 0), 'an arrival between two periods');
    assert.equal(new Set(at).size, at.length, 'one decision an instant');
    // The replay follows the decisions taken at arrivals too: once every job is known, each predicts what it does.
    const last = Math.max(...releases);
    const after = onArrival.decisions!.filter((d) => d.timeSeconds >= last);
    const predicted = after.map((d) => fcOf(d.scores.find((s) => s.allocation === d.choice.allocation && s.provisioning === d.choice.provisioning)!));
    assert.ok(Math.abs(predicted[predicted.length - 1] - onArrival.fc!) < 1e-3, `the last decision predicted ${predicted[predicted.length - 1]}, the run scored ${onArrival.fc}`);
    assert.deepEqual(portfolioRequestIssues({ decideOnArrival: 'yes' }).map((i) => i.path), ['decideOnArrival']);
    assert.deepEqual([portfolioFromRequest({}).decideOnArrival, portfolioFromRequest({ decideOnArrival: false }).decideOnArrival], [true, false]);
  });
});
