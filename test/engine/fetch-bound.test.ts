/**
 * With priced transfers the builders price a task's fetch on every node that might still end it first; a node
 * whose least possible fetch (FetchPlanner.minFetchSlots: a slot as soon as it reads anything remotely) keeps it
 * from beating the best node found is left unpriced. That must change nothing but the work: these tests build
 * and decode priced instances both ways (FetchPlanner.boundFetches on and off) and require the same node, start
 * and fetch for every task, and fewer fetches priced with the bound.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { acoBpInstance } from '../../harness/acobp-instance';
import { scaleInstance } from '../../harness/scale-instance';
import { Decoder } from '../../src/engine/lists/decoder';
import { rffdOnce } from '../../src/engine/lists/job-orders';
import { loadInstance, Model } from '../../src/engine/model/model';
import { Random } from '../../src/engine/random';
import { FetchPlanner } from '../../src/engine/schedule/fetch-planner';
import { Schedule } from '../../src/engine/schedule/schedule';
import { buildFromTaskOrder } from '../../src/engine/schedule/sgs';
import { latestFinishOrder } from '../../src/engine/schedule/tails';

function models(): { name: string; model: Model }[] {
  const out: { name: string; model: Model }[] = [];
  for (let seed = 1; seed <= 4; seed++) {
    out.push({ name: `scale ${seed}`, model: loadInstance(scaleInstance({ nodes: 30 + 10 * seed, tasks: 400, seed, transfers: true, dataDir: '/nonexistent' })) });
    out.push({ name: `scale tight ${seed}`, model: loadInstance(scaleInstance({ nodes: 12, tasks: 500, slots: 30, seed: seed + 10, transfers: true, dataDir: '/nonexistent' })) });
  }
  for (let seed = 1; seed <= 3; seed++) out.push({ name: `aco-bp ${seed}`, model: loadInstance(acoBpInstance({ seed, jitter: 0.3, outputShare: [0.1, 1] })) });
  return out;
}

/** Every schedule the builders make of a model: the latest-finish list, a random list with a generator, RFFD, decodes with and without one. */
function schedules(model: Model, seed: number): Schedule[] {
  const rng = new Random(seed);
  const random = Int32Array.from(rng.shuffle(Array.from({ length: model.nTasks }, (_, i) => i)));
  const out = [buildFromTaskOrder(model, latestFinishOrder(model), null), buildFromTaskOrder(model, random, new Random(seed + 1)), rffdOnce(model, new Random(seed + 2))];
  const dec = new Decoder(model);
  for (const [order, withRng, fill] of [
    [latestFinishOrder(model), false, false],
    [random, true, true],
  ] as const) {
    const s = new Schedule(model);
    dec.decode(order, null, withRng ? new Random(seed + 3) : null, s, undefined, fill);
    out.push(s);
  }
  return out;
}

describe('priced placement leaves unpriced the nodes its least fetch rules out, and chooses the same', () => {
  const keep = FetchPlanner.boundFetches;
  after(() => {
    FetchPlanner.boundFetches = keep;
  });

  it('the same node, start and fetch for every task, built and decoded, with fewer fetches priced', () => {
    const fetchSlots = FetchPlanner.prototype.fetchSlots;
    let priced = 0;
    FetchPlanner.prototype.fetchSlots = function (...args: Parameters<typeof fetchSlots>) {
      priced++;
      return fetchSlots.apply(this, args);
    };
    try {
      let compared = 0;
      const counts = { on: 0, off: 0 };
      for (const { name, model } of models()) {
        assert.ok(model.pricesTransfers, name);
        FetchPlanner.boundFetches = false;
        priced = 0;
        const plain = schedules(model, model.nTasks);
        counts.off += priced;
        FetchPlanner.boundFetches = true;
        priced = 0;
        const bounded = schedules(model, model.nTasks);
        counts.on += priced;
        plain.forEach((s, x) => {
          const b = bounded[x];
          assert.ok(s.scheduledTasks() > 0, `${name} #${x}: nothing scheduled`);
          assert.deepEqual([...b.accepted], [...s.accepted], `${name} #${x}: accepted`);
          assert.deepEqual([...b.node], [...s.node], `${name} #${x}: nodes`);
          assert.deepEqual([...b.start], [...s.start], `${name} #${x}: starts`);
          assert.deepEqual([...b.fetch!], [...s.fetch!], `${name} #${x}: fetches`);
          compared++;
        });
      }
      assert.equal(compared, 11 * 5);
      assert.ok(counts.on < 0.8 * counts.off, `fetches priced: ${counts.on} with the bound, ${counts.off} without`);
    } finally {
      FetchPlanner.prototype.fetchSlots = fetchSlots;
    }
  });
});
