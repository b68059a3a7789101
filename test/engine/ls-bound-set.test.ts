/**
 * The greedy bound set of ls (bound-set.ts) and how the subset and job-set phases use it: the set is
 * the densest jobs the bounds allow, the subset search tries it first but still reaches a better set
 * outside it, and the job-set phase leaves the jobs outside it to the end of its decodes.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makespanBound } from '../../src/engine/bounds/makespan';
import { evaluatePlan } from '../../src/engine/evaluate/evaluate';
import { loadInstance } from '../../src/engine/model/model';
import { toPlanDoc } from '../../src/engine/schedule/plan-doc';
import { Random } from '../../src/engine/random';
import { solve } from '../../src/engine/solve';
import { Schedule } from '../../src/engine/schedule/schedule';
import { Decoder } from '../../src/engine/lists/decoder';
import { greedyBoundSet, jobsByDensity, noJobFits, TargetSets } from '../../src/engine/job-sets/bound-set';
import { JobSetSearch } from '../../src/engine/strategies/ls/job-set-search';
import { subsetSearch } from '../../src/engine/job-sets/subset-search';
import { rffdOnce } from '../../src/engine/lists/job-orders';
import { greedyJobSetsMissTheBest, oneNodeJobs } from '../support/job-set-instance';
import { randomInstance } from '../support/random-instance';
import { BY_WORK } from '../support/work-limit';

const never = () => false;
const barredIds = (ids: string[], barred: Uint8Array | null) => ids.filter((_, j) => barred?.[j]);

/** A oneNodeJobs instance, its job ids and its greedy bound set at T. */
function oneNodeGreedy(name: string, slots: number, jobs: Parameters<typeof oneNodeJobs>[2]) {
  const model = loadInstance(oneNodeJobs(name, slots, jobs));
  return { model, ids: model.jobs.map((j) => j.id), atT: greedyBoundSet(model, never)! };
}

describe('ls greedy bound set', () => {
  it('keeps the densest jobs while the bound allows: pair and one triple of 24 slots, not the second triple or long', () => {
    const model = loadInstance(greedyJobSetsMissTheBest());
    const ids = model.jobs.map((j) => j.id);
    assert.deepEqual(jobsByDensity(model).map((j) => ids[j]), ['pair', 'triple1', 'triple2', 'long']);
    // pair (6 slots) + triple1 (12) fit in 24; triple2 would make 30 and long 31: the energy bound refutes both.
    assert.deepEqual(barredIds(ids, greedyBoundSet(model, never)), ['long', 'triple2']);
  });

  it('is null when every job fits by the bound, or when stopped', () => {
    const roomy = loadInstance({ ...greedyJobSetsMissTheBest(), horizon: { slots: 100, slotSeconds: 1 } });
    assert.equal(greedyBoundSet(roomy, never), null);
    assert.equal(greedyBoundSet(loadInstance(greedyJobSetsMissTheBest()), () => true), null);
  });

  it('on random instances: the kept set passes the bound and every barred job was refuted when its turn came', () => {
    let barredSeen = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const model = loadInstance(randomInstance(seed, { maxJobs: 6 }));
      const barred = greedyBoundSet(model, never);
      if (!barred) continue;
      const kept = barred.map((b) => 1 - b);
      assert.ok(makespanBound(model, kept).makespanSlots <= model.T, `seed ${seed}: kept set refuted`);
      // Replay the scan: a barred job is one the bound refuted on top of the jobs kept before it.
      const soFar = new Uint8Array(model.jobs.length);
      for (const j of jobsByDensity(model)) {
        soFar[j] = 1;
        const fits = makespanBound(model, soFar).makespanSlots <= model.T;
        assert.equal(barred[j], fits ? 0 : 1, `seed ${seed}, job ${model.jobs[j].id}`);
        if (!fits) soFar[j] = 0;
      }
      barredSeen += barred.reduce((n, b) => n + b, 0);
    }
    assert.ok(barredSeen > 0, 'some random instance has jobs outside the set');
  });

  it('a smaller horizon gives another greedy set, and later episodes aim at it only when it beats their best', () => {
    // One node, 100 slots: x (4 tasks of 10 s) then y (3 of 20 s) fill exactly 100 slots; z (1 of 40 s)
    // is refuted. At any horizon of the last 3% (97-99 slots) y no longer fits and z does: {x, z}, 5 tasks.
    const { model, ids, atT } = oneNodeGreedy('horizons', 100, [['x', 4, 10], ['y', 3, 20], ['z', 1, 40]]);
    assert.deepEqual(barredIds(ids, atT), ['z']);
    assert.deepEqual(barredIds(ids, greedyBoundSet(model, never, 99)), ['y']);
    const targets = new TargetSets(model, atT);
    assert.deepEqual(barredIds(ids, targets.pick(new Random(1), 4, never)), ['y']);
    // Not twice, nor when the best episode already has 5 tasks, nor when stopped.
    assert.equal(targets.pick(new Random(1), 4, never), null);
    assert.equal(new TargetSets(model, atT).pick(new Random(1), 5, never), null);
    assert.equal(new TargetSets(model, atT).pick(new Random(1), 4, () => true), null);
  });

  it('on random instances: a set by horizon, from a scan made for another horizon or not, is the greedy set at that horizon', () => {
    let reused = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const model = loadInstance(randomInstance(seed, { maxJobs: 6 }));
      const rng = new Random(seed);
      const targets = new TargetSets(model, new Uint8Array(model.jobs.length));
      const horizons = rng.shuffle(Array.from({ length: Math.min(20, model.T) }, (_, i) => model.T - i));
      const seen = new Set<string>();
      for (const h of horizons) {
        const fresh = greedyBoundSet(model, never, h);
        assert.deepEqual(targets.atHorizon(h, never), fresh, `seed ${seed}, horizon ${h}`);
        const key = fresh ? fresh.join('') : 'all';
        if (seen.has(key)) reused++;
        seen.add(key);
      }
    }
    assert.ok(reused > 0, 'some horizons share a set');
  });

  it('once the greedy set cannot beat the best episode, noisy job orders give other sets', () => {
    // One node, 100 slots: p (2 tasks of 24 s), q (1 of 26 s), r (2 of 26 s). By work per task the
    // greedy set is p + q (74 slots, 3 tasks) at every horizon of the last 3%; r before p fills all 100
    // slots with 4 tasks, which a draw with r's work per task scaled below p's finds. Noisy orders are
    // drawn only when the best episode has at least the greedy set's 3 tasks.
    const { model, ids, atT } = oneNodeGreedy('noisy-orders', 100, [['p', 2, 24], ['q', 1, 26], ['r', 2, 26]]);
    assert.deepEqual(barredIds(ids, atT), ['r']);
    for (const h of [97, 98, 99]) assert.deepEqual(barredIds(ids, greedyBoundSet(model, never, h)), ['r']);
    assert.deepEqual(barredIds(ids, new TargetSets(model, atT).pick(new Random(1), 3, never)), ['q']);
    assert.equal(new TargetSets(model, atT).pick(new Random(1), 4, never), null);
    assert.equal(new TargetSets(model, atT).pick(new Random(1), 2, never), null);
  });

  it('when the bounds refute every job alone, ls returns the empty plan as optimal at once', async () => {
    // 10 slots on one node: a needs 11, b's two tasks 12.
    const none = loadInstance(oneNodeJobs('none-fit', 10, [['a', 1, 11], ['b', 2, 6]]));
    assert.equal(noJobFits(none, never), true);
    // By work: the refutation stops at the deadline, and a search would run if the clock cut it short.
    const plan = await solve(none, { strategy: 'ls', ...BY_WORK, seed: 1 });
    assert.equal(plan.objective.scheduledTasks, 0);
    assert.equal(plan.optimal, true);
    assert.equal(plan.stats?.noJobFits, true);
    assert.equal(plan.stats?.iterations, 0, 'no search ran');
    // One job that fits alone is enough to search.
    assert.equal(noJobFits(loadInstance(oneNodeJobs('one-fits', 10, [['a', 1, 11], ['b', 2, 5]])), never), false);
    assert.equal(noJobFits(none, () => true), false);
  });

  it('subset search: the greedy set first, then every job, so the better set outside it is still found', () => {
    const model = loadInstance(greedyJobSetsMissTheBest());
    const barred = greedyBoundSet(model, never);
    // Incumbent: long and pair (3 tasks), what longest-first gives.
    const incumbent = new Schedule(model);
    const skip = Uint8Array.from(model.jobs, (j) => (j.id === 'long' || j.id === 'pair' ? 0 : 1));
    new Decoder(model).decode(Int32Array.from({ length: model.nTasks }, (_, i) => i), skip, null, incumbent);
    const limits = { maxSteps: 1000, stop: never, stalled: never };
    const r = subsetSearch(model, incumbent, new Random(1), limits, { barred });
    assert.deepEqual(model.jobs.filter((_, j) => r.best.accepted[j]).map((j) => j.id), ['triple1', 'triple2']);
    assert.equal(r.complete, true);
    assert.ok(evaluatePlan(model, toPlanDoc(model, r.best, 'ls')).ok);
    // With room for the first pass only, the best is the greedy set's: pair and triple1 (5 tasks).
    const first = subsetSearch(model, incumbent, new Random(1), { ...limits, maxSteps: r.steps - 1 }, { barred });
    assert.ok(first.best.scheduledTasks() <= 5);
  });

  it('job-set phase: a barred job is never readmitted, only tried at the end of a decode', () => {
    const model = loadInstance(greedyJobSetsMissTheBest());
    const barred = greedyBoundSet(model, never)!;
    const triple2 = model.jobIndex.get('triple2')!;
    for (const seed of [1, 2, 3]) {
      const rng = new Random(seed);
      const start = rffdOnce(model, rng);
      // Unbarred, this phase finds the two triples (ls.test.ts); barred, triple2 only gets what pair and
      // triple1 leave (6 slots of 24), too little for its 12.
      const search = new JobSetSearch(model, rng, barred);
      search.seed(start);
      search.run({ stallDecodes: 300, maxDecodes: 2000, stop: never });
      assert.equal(search.best.tasks, 5);
      assert.equal(search.best.sched.accepted[triple2], 0);
      assert.ok(evaluatePlan(model, toPlanDoc(model, search.best.sched, 'ls')).ok);
    }
  });
});
