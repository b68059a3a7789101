/**
 * The operator-size generator (harness/scale-instance.ts) that bench:scale measures on: the size asked for,
 * valid instances, the same instance for the same seed, hosts under their own (shifted) load, and the synthetic
 * fallback when the traces are absent (a user's clone has no ../shared).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { loadInstance } from '../../src/engine/model/model';
import { scaleInstance } from '../../harness/scale-instance';

const SHARED_DATA = path.resolve(__dirname, '..', '..', '..', '..', 'shared', 'data');
const taskCount = (doc: ReturnType<typeof scaleInstance>) => doc.jobs.reduce((n, j) => n + j.stages.reduce((m, s) => m + s.tasks, 0), 0);

describe('the operator-size generator', () => {
  it('makes exactly the nodes and tasks asked for, a valid instance, the same for the same seed', () => {
    const doc = scaleInstance({ nodes: 60, tasks: 3000, seed: 7 });
    assert.equal(doc.nodes.length, 60);
    assert.equal(taskCount(doc), 3000);
    const model = loadInstance(doc);
    assert.equal(model.K, 60);
    assert.equal(model.nTasks, 3000);
    assert.deepEqual(scaleInstance({ nodes: 60, tasks: 3000, seed: 7 }), doc);
    assert.notDeepEqual(scaleInstance({ nodes: 60, tasks: 3000, seed: 8 }).usage, doc.usage);
  });

  it('replicates the data centre: 27 PC-2 hosts a copy, each copy in its own racks, configurations repeated', () => {
    const doc = scaleInstance({ dc: 'pc2', nodes: 60, tasks: 500, seed: 3 });
    assert.equal(doc.nodes[0].id, 'pc2-r1-h01');
    assert.equal(doc.nodes[27].id, 'pc2-r2-h01');
    assert.equal(doc.nodes[59].id, 'pc2-r3-h06');
    assert.deepEqual({ ...doc.nodes[27], id: '', rack: '' }, { ...doc.nodes[0], id: '', rack: '' });
    assert.ok(doc.nodes.slice(0, 27).every((n) => n.rack!.startsWith('r1-')) && doc.nodes.slice(27, 54).every((n) => n.rack!.startsWith('r2-')));
    // Replicas of one host have their own load.
    assert.notDeepEqual(doc.usage![doc.nodes[27].id], doc.usage![doc.nodes[0].id]);
  });

  it('says when its load and sizes are synthetic, and reads the traces when given them', (t) => {
    const synthetic = scaleInstance({ nodes: 10, tasks: 400, seed: 1, dataDir: '/nonexistent' });
    assert.match(String((synthetic.provenance as Record<string, string>).usage), /synthetic/);
    assert.match(String((synthetic.provenance as Record<string, string>).jobs), /synthetic/);
    if (!existsSync(SHARED_DATA)) return t.skip(`${SHARED_DATA} is absent: the real-trace path is not checked here`);
    const real = scaleInstance({ nodes: 30, tasks: 2000, seed: 1, dataDir: SHARED_DATA });
    assert.match(String((real.provenance as Record<string, string>).usage), /Bitbrains/);
    assert.match(String((real.provenance as Record<string, string>).jobs), /SWIM/);
    assert.equal(taskCount(real), 2000);
    loadInstance(real);
  });
});

describe('the next day of an operator-size instance', () => {
  it('changes the load alone, and nothing else, for the same seed', () => {
    const day1 = scaleInstance({ nodes: 30, tasks: 1500, seed: 5 });
    const day2 = scaleInstance({ nodes: 30, tasks: 1500, seed: 5, usageShiftSamples: 288 });
    assert.deepEqual(day2.jobs, day1.jobs);
    assert.deepEqual(day2.nodes, day1.nodes);
    assert.notDeepEqual(day2.usage, day1.usage);
    assert.deepEqual(Object.keys(day2.usage!), Object.keys(day1.usage!));
  });
});

describe('an operator-size instance with data to move (transfers)', () => {
  it('places each map chunk on three nodes as HDFS does, gives maps their shuffle output, and changes nothing else', () => {
    const plain = scaleInstance({ nodes: 60, tasks: 2000, seed: 4 });
    const moving = scaleInstance({ nodes: 60, tasks: 2000, seed: 4, transfers: true });
    assert.deepEqual(moving.nodes, plain.nodes);
    assert.deepEqual(moving.usage, plain.usage);
    const rackOf = new Map(moving.nodes.map((n) => [n.id, n.rack]));
    let chunks = 0;
    moving.jobs.forEach((job, q) => {
      const [map, reduce] = job.stages;
      const { blocks, outputMB, ...rest } = map;
      assert.deepEqual({ ...job, stages: [rest, reduce] }, plain.jobs[q]);
      assert.equal(blocks!.length, map.tasks);
      assert.ok(outputMB! >= 1 && outputMB! <= 512, `outputMB ${outputMB}`);
      for (const replicas of blocks!) {
        chunks++;
        assert.equal(new Set(replicas).size, replicas.length);
        assert.equal(replicas.length, 3, 'three replicas on a data centre of many racks');
        // The second and third in one rack, another than the first's.
        assert.notEqual(rackOf.get(replicas[1]), rackOf.get(replicas[0]));
        assert.equal(rackOf.get(replicas[2]), rackOf.get(replicas[1]));
      }
    });
    assert.equal(chunks, moving.jobs.reduce((n, j) => n + j.stages[0].tasks, 0));
    assert.equal(loadInstance(plain).pricesTransfers, false);
    assert.equal(loadInstance(moving).pricesTransfers, true);
    assert.match(moving.name, /-transfers$/);
  });
});
