/**
 * The contention a priced plan pads its fetches with (FORMAT.md, Transfers priced in plans): LinkLoad
 * (network/link-load.ts), the planner's picture of each node's uplink and downlink over time, against
 * hand-computed answers; then FetchPlanner (schedule/fetch-planner.ts) on a hand-made shuffle whose fetches
 * are worked out by hand: two reduces reading from one map node through the same downlink (or the same
 * uplink) serialise, so the second fetch takes about twice the first, both at least the least fetch time;
 * last, solve() plans exactly that and the simulator's replay ends where the plan says.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LeastFetch } from '../../src/engine/network/least-fetch';
import { loadInstance } from '../../src/engine/model/model';
import type { InstanceDoc } from '../../src/engine/model/types';
import { LinkLoad } from '../../src/engine/network/link-load';
import { FetchPlanner } from '../../src/engine/schedule/fetch-planner';
import { simulatePlan } from '../../src/engine/simulation';
import { solve } from '../../src/engine/solve';
import { BACKSTOP_MS } from '../support/work-limit';

describe('LinkLoad: seconds of transfer per node, link and slot', () => {
  // 3 nodes, 10 slots of 2 s.
  const S = 2;
  const idle = (from: number, seconds: number) => from * S + seconds;

  test('an idle link: a transfer ends its own length after it is asked', () => {
    const links = new LinkLoad(3, 10, S);
    assert.equal(links.endOf(0, 'up', 3, 5), 11);
    assert.equal(links.endOf(0, 'down', 0, 0.5), 0.5);
    assert.equal(links.endOf(0, 'up', 3, 0), 6, 'nothing to move ends at once');
    assert.equal(links.upIdleFrom(0, 0), true);
  });

  test('a busy link: a transfer waits behind the load placed on it, a full slot is skipped', () => {
    const links = new LinkLoad(3, 10, S);
    const log: number[] = [];
    links.add(0, 'up', 1, 3, log); // slot 1 full (2 s), slot 2 holds 1 s
    assert.deepEqual(log, [0, 1, 1, 2, 0, 1, 2, 1], 'the log: (node, up, slot, seconds) per slot touched');
    assert.equal(links.endOf(0, 'up', 1, 1), 6, 'slot 1 is full: 1 s after the 1 s already in slot 2 (4 + 1 + 1)');
    assert.equal(links.endOf(0, 'up', 0, 1), 1, 'slot 0 is still free');
    assert.equal(links.endOf(0, 'up', 0, 3), 6, '2 s in slot 0, slot 1 skipped, the last 1 s after slot 2\'s load');
    assert.equal(links.endOf(0, 'down', 1, 1), idle(1, 1), "the node's downlink is another link");
    assert.equal(links.endOf(1, 'up', 1, 1), idle(1, 1), "another node's uplink is idle");
    assert.equal(links.upIdleFrom(0, 3), true, 'nothing on the uplink from slot 3');
    assert.equal(links.upIdleFrom(0, 2), false);
    // A second transfer queues behind the first: 1 s fills slot 2, 2 s fill slot 3.
    const second: number[] = [];
    links.add(0, 'up', 1, 3, second);
    assert.deepEqual(second, [0, 1, 2, 1, 0, 1, 3, 2]);
    assert.equal(links.endOf(0, 'up', 1, 0.5), 8.5, 'slots 1-3 full: from slot 4');
    // Taking the first back reopens slot 1 (it was full) and frees slot 2's first second.
    links.remove(log);
    assert.equal(links.endOf(0, 'up', 1, 2), 4, 'slot 1 free again');
    assert.equal(links.endOf(0, 'up', 2, 1.5), 8.5, "1 s in slot 2 after the second's 1 s, slot 3 full, 0.5 s in slot 4");
  });

  test('add then remove restores every answer', () => {
    const links = new LinkLoad(3, 10, S);
    const before: number[] = [];
    const probes: [number, 'up' | 'down', number, number][] = [];
    for (const k of [0, 1, 2]) for (const link of ['up', 'down'] as const) for (let from = 0; from < 10; from++) for (const s of [0.5, 1, 2, 3.5, 7]) probes.push([k, link, from, s]);
    for (const p of probes) before.push(links.endOf(...p));
    const logs: number[][] = [];
    const carried = new Set<string>();
    for (const [k, link, from, seconds] of [[0, 'up', 1, 3], [0, 'up', 0, 5.5], [1, 'down', 4, 2], [2, 'down', 7, 9], [0, 'down', 2, 0.25]] as const) {
      const log: number[] = [];
      links.add(k, link, from, seconds, log);
      logs.push(log);
      carried.add(`${k}/${link}`);
    }
    assert.notDeepEqual(
      probes.map((p) => links.endOf(...p)),
      before,
      'the load changes answers',
    );
    // Taken back in another order than added.
    for (const n of [2, 0, 4, 1, 3]) links.remove(logs[n]);
    probes.forEach((p, n) => {
      const now = links.endOf(...p);
      // Within the horizon, as on the idle links before; past it, a link that carried load says Infinity (a
      // link that never did answers the arithmetic there: not checked, see the next test).
      if (before[n] <= 10 * S) assert.equal(now, before[n], `endOf(${p.join(', ')})`);
      else if (carried.has(`${p[0]}/${p[1]}`)) assert.equal(now, Infinity, `endOf(${p.join(', ')})`);
    });
  });

  // endOf() says Infinity "when the horizon ends first"; a link that never carried anything answers from * S +
  // seconds even past the horizon (no array to walk). The planner then prices a fetch longer than the window,
  // which no fit accepts either way, so only a link with load is checked here.
  test('past the horizon: Infinity on a link that carries load', () => {
    const links = new LinkLoad(3, 10, S);
    const log: number[] = [];
    links.add(0, 'down', 8, 4, log); // slots 8 and 9 full
    assert.equal(links.endOf(0, 'down', 8, 1), Infinity, 'no free second left before the horizon');
    assert.equal(links.endOf(0, 'down', 7, 3), Infinity, "2 s fit in slot 7, the last 1 s nowhere");
    assert.equal(links.endOf(0, 'down', 7, 2), 16, 'exactly slot 7');
    assert.equal(links.endOf(0, 'down', 10, 1), Infinity, 'asked at the horizon');
    // What does not fit in the window is not booked either: 2 s in slot 9, the rest nowhere.
    const over: number[] = [];
    links.add(1, 'up', 9, 5, over);
    assert.deepEqual(over, [1, 1, 9, 2]);
    links.clear();
    assert.equal(links.endOf(0, 'down', 8, 1), 17, 'clear() empties every link');
  });
});

/**
 * Node a runs the one map (its 2 s on `cpu`, which only a has); each of two reduces reads outputMB / 2 from it
 * through the links of `reduceNodes` (the only nodes with a `gpu`). Every link at 80 Mbit/s: 10 MB/s.
 */
function shuffle(outputMB: number, reduceNodes: string[]): InstanceDoc {
  return {
    format: 'fallow.instance/v1',
    name: 'contention',
    horizon: { slots: 40, slotSeconds: 1 },
    metrics: ['cpu', 'gpu'],
    nodes: [
      { id: 'a', bandwidthMbps: 80, capacity: { cpu: 1 } },
      ...reduceNodes.map((id) => ({ id, bandwidthMbps: 80, capacity: { gpu: 2 } })),
    ],
    jobs: [
      {
        id: 'j',
        stages: [
          { id: 'map', tasks: 1, durationSeconds: 2, demand: { cpu: 1 }, outputMB },
          { id: 'reduce', tasks: 2, after: ['map'], durationSeconds: 3, demand: { gpu: 1 } },
        ],
      },
    ],
  };
}

// Global task indexes and node indexes of shuffle(): the map, the two reduces; a, then the reduce nodes.
const MAP = 0;
const R0 = 1;
const R1 = 2;
const [A, B, C] = [0, 1, 2];
const MAP_END = 2;

/** The planner with the map placed on a and reduce 0 placed on `first` from MAP_END; nodeOf as the builders keep it. */
function afterFirstReduce(inst: InstanceDoc, first: number) {
  const model = loadInstance(inst);
  const planner = new FetchPlanner(model);
  const nodeOf = Int32Array.from([A, -1, -1]);
  planner.reserve(MAP, A, 0, nodeOf);
  const firstFetch = planner.fetchSlots(R0, first, MAP_END, nodeOf);
  planner.reserve(R0, first, MAP_END, nodeOf);
  nodeOf[R0] = first;
  const least = (i: number, k: number) => {
    const where = Int32Array.from(nodeOf);
    where[i] = k;
    return new LeastFetch(model).slots(i, k, where);
  };
  return { model, planner, nodeOf, firstFetch, least };
}

describe('FetchPlanner: a busy link pads the fetch', () => {
  test("two reduces on one node at the same slot: the downlink serialises, the second waits for the first's 5 s", () => {
    // 100 MB of map output: 50 MB per reduce, 5 s at 10 MB/s.
    const { planner, nodeOf, firstFetch, least } = afterFirstReduce(shuffle(100, ['b']), B);
    assert.equal(firstFetch, 5, 'the first fetches on idle links: 50 MB x 8 / 80');
    assert.equal(least(R0, B), 5);
    const second = planner.fetchSlots(R1, B, MAP_END, nodeOf);
    assert.equal(second, 10, "the second's 5 s follow the first's on b's downlink (and a's uplink)");
    assert.equal(least(R1, B), 5, 'the least fetch time knows nothing of the other');
    assert.ok(second >= least(R1, B) && firstFetch >= least(R0, B));
  });

  test('a fetch that ends mid-slot: the second ends at twice the seconds, rounded up once', () => {
    // 70 MB: 35 MB per reduce, 3.5 s. The first takes 4 slots; the second's 3.5 s end 7 s after slot 2.
    const { planner, nodeOf, firstFetch, least } = afterFirstReduce(shuffle(70, ['b']), B);
    assert.equal(firstFetch, 4);
    assert.equal(planner.fetchSlots(R1, B, MAP_END, nodeOf), 7);
    assert.equal(least(R1, B), 4);
  });

  test("two reduces on different nodes: the map node's uplink serialises them", () => {
    const { planner, nodeOf, firstFetch, least } = afterFirstReduce(shuffle(100, ['b', 'c']), B);
    assert.equal(firstFetch, 5);
    // c's downlink is idle, but a's uplink sends the first reduce's 50 MB over slots 2-6.
    assert.equal(planner.fetchSlots(R1, C, MAP_END, nodeOf), 10);
    assert.equal(least(R1, C), 5);
  });

  test('the padding is the wait: a reduce asked once the links are free again fetches the least, and so does one taken back', () => {
    const { model, planner, nodeOf } = afterFirstReduce(shuffle(100, ['b']), B);
    assert.equal(planner.fetchSlots(R1, B, MAP_END + 5, nodeOf), 5, 'from slot 7 the first is done');
    assert.equal(planner.fetchSlots(R1, B, MAP_END + 3, nodeOf), 7, 'from slot 5: 2 s more of the first, then its own 5 s');
    planner.releaseJob(model.taskJob[R0]);
    nodeOf.fill(-1);
    nodeOf[MAP] = A;
    assert.equal(planner.fetchSlots(R1, B, MAP_END, nodeOf), 5, 'the job taken back: its load left the links');
  });
});

describe('solve() plans the contention, the replay confirms it', () => {
  // rffd builds with the serial SGS (Builder), ls decodes priority lists (lists/decoder.ts), exact's MILP
  // order is priced afterwards (schedule/price-schedule.ts): the three ways a priced plan is made.
  for (const strategy of ['rffd', 'ls', 'exact']) {
    test(`${strategy}: both reduces on b from slot 2, fetching 5 and 10 slots; the replay ends at 15 s as planned`, async () => {
      const model = loadInstance(shuffle(100, ['b']));
      const plan = await solve(model, { strategy, seed: 1, maxIterations: 3, timeBudgetMs: BACKSTOP_MS });
      assert.equal(plan.transfers, 'priced');
      const reduces = plan.assignments.filter((a) => a.stage === 'reduce');
      assert.deepEqual(
        reduces.map((a) => [a.node, a.start]),
        [
          ['b', 2],
          ['b', 2],
        ],
      );
      assert.deepEqual(reduces.map((a) => a.fetchSlots).sort((x, y) => x! - y!), [5, 10]);
      // The least fetch of each is 5: a plan of 5 and 5 would pass the evaluator, but not the links.
      assert.equal(plan.objective.makespanSlots, 15, '2 (map) + 10 (both 50 MB through one downlink) + 3');
      const replay = simulatePlan(model, plan, { qos: 'none', seed: 1 });
      assert.ok(Math.abs(replay.makespanSeconds - 15) < 1e-6, `replay makespan ${replay.makespanSeconds} s`);
    });
  }
});
