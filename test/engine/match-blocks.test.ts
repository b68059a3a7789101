/**
 * Dealing a stage's tasks to its own (node, start) pairs by their blocks (src/engine/placement/match-blocks.ts):
 * a maximum matching makes as many tasks node-local as any dealing can, then rack-local; the plan's ends,
 * makespan and feasibility do not change; and Hopcroft-Karp agrees with brute force on small random graphs.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { evaluatePlan } from '../../src/engine/evaluate/evaluate';
import { loadInstance } from '../../src/engine/model/model';
import { InstanceDoc } from '../../src/engine/model/types';
import { toPlanDoc } from '../../src/engine/schedule/plan-doc';
import { matchBlocks, maxMatching } from '../../src/engine/placement/match-blocks';
import { Random } from '../../src/engine/random';
import { Schedule } from '../../src/engine/schedule/schedule';
import { solveWithOutcome } from '../../src/engine/solve';
import { acoBpInstance } from '../../harness/acobp-instance';
import { BY_WORK } from '../support/work-limit';

describe('matching tasks to their blocks', () => {
  test('re-deals a stage so every task that can be local is, then rack-local; ends unchanged', () => {
    const doc: InstanceDoc = {
      format: 'fallow.instance/v1',
      name: 'deal',
      horizon: { slots: 10, slotSeconds: 1 },
      metrics: ['cpu'],
      nodes: [
        { id: 'a1', rack: 'A', capacity: { cpu: 1 } },
        { id: 'a2', rack: 'A', capacity: { cpu: 1 } },
        { id: 'b1', rack: 'B', capacity: { cpu: 1 } },
      ],
      jobs: [{ id: 'j', stages: [{ id: 'map', tasks: 3, demand: { cpu: 1 }, durationSeconds: 2, blocks: [['a2'], ['b1'], ['a1']] }] }],
    };
    const m = loadInstance(doc);
    const s = new Schedule(m);
    s.accepted[0] = 1;
    // Task 0 (block on a2) on b1, task 1 (b1) on a1, task 2 (a1) on a2: all remote or rack-local as dealt.
    [[2, 0], [0, 2], [1, 4]].forEach(([k, t], i) => ((s.node[i] = k), (s.start[i] = t)));
    const ends = [0, 1, 2].map((i) => s.end(i)).sort();
    matchBlocks(m, s);
    const e = evaluatePlan(m, toPlanDoc(m, s, 'hand'));
    assert.ok(e.ok, e.violations.join('; '));
    assert.deepEqual(e.kpis.locality, { nodeLocal: 3, rackLocal: 0, remote: 0 });
    assert.deepEqual([0, 1, 2].map((i) => s.end(i)).sort(), ends);
    assert.deepEqual([s.node[0], s.node[1], s.node[2]], [1, 2, 0]);
  });

  test('Hopcroft-Karp finds maximum matchings (brute force on 200 random graphs)', () => {
    const rng = new Random(11);
    for (let g = 0; g < 200; g++) {
      const nl = 1 + rng.int(6);
      const nr = 1 + rng.int(6);
      const adj = Array.from({ length: nl }, () => Array.from({ length: nr }, (_, v) => v).filter(() => rng.next() < 0.35));
      const m = maxMatching(nl, nr, (u, visit) => adj[u].forEach(visit));
      const used = new Set<number>();
      let size = 0;
      m.forEach((v, u) => {
        if (v < 0) return;
        assert.ok(adj[u].includes(v), 'an edge of the graph');
        assert.ok(!used.has(v), 'each right vertex once');
        used.add(v);
        size++;
      });
      const best = (u: number, taken: Set<number>): number => (u === nl ? 0 : Math.max(best(u + 1, taken), ...adj[u].filter((v) => !taken.has(v)).map((v) => 1 + best(u + 1, new Set([...taken, v])))));
      assert.equal(size, best(0, new Set()), `graph ${g}`);
    }
  });

  test('every strategy\'s plan on a paper-shaped instance runs most maps where their blocks are', async () => {
    const m = loadInstance(acoBpInstance({ seed: 2, scale: 0.1, perFlavour: 4, slots: 3000 }));
    for (const strategy of ['rffd', 'ls']) {
      // By work only: a construction cut short by the clock may leave tasks out.
      const { plan } = await solveWithOutcome(m, { strategy, ...BY_WORK, seed: 1, maxIterations: 1 });
      const kpis = evaluatePlan(m, plan).kpis;
      const maps = m.stages.filter((s) => s.blocks).reduce((n, s) => n + s.tasks, 0);
      assert.equal(plan.objective.scheduledTasks, m.nTasks);
      assert.ok(kpis.locality!.nodeLocal > 0.8 * maps, `${strategy}: ${JSON.stringify(kpis.locality)} of ${maps}`);
    }
  });
});
