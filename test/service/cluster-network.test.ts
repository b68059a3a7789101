/**
 * A cluster may say its racks' bandwidths (`network`, docs/FORMAT.md): validated with the path of every
 * problem (nothing written), kept per version, and carried into the instance a solve by reference solves,
 * so simulations of its plans and policy simulations charge remote reads and shuffles by distance.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Service, startService, waitFor } from '../../harness/service';

const NODES = [
  { id: 'a1', rack: 'A', capacity: { cpu: 4, ram: 8 } },
  { id: 'b1', rack: 'B', capacity: { cpu: 4, ram: 8 } },
];

describe('cluster network', () => {
  let svc: Service;
  let farmer: string;
  let customer: string;

  before(async () => {
    svc = await startService();
    const t = await svc.tenant('net', ['farmer', 'customer']);
    farmer = t.keys.farmer;
    customer = t.keys.customer;
  });
  after(() => svc?.close());

  it('rejects a bad network naming the path, and writes nothing', async () => {
    const r = await svc.client(farmer).POST('/v1/clusters', { body: { name: 'bad', metrics: ['cpu', 'ram'], nodes: NODES, network: { intraRackMbps: -1, interRackMbps: 1000, wan: 5 } as never } });
    assert.equal(r.response.status, 422);
    assert.deepEqual(
      (r.error as any).problems.map((p: any) => p.path),
      ['network.intraRackMbps', 'network.wan'],
    );
    const [row] = await svc.sql<{ n: number }>('SELECT count(*)::int AS n FROM clusters');
    assert.equal(row.n, 0);
  });

  it('keeps the network per version and carries it into a solve by reference', async () => {
    const network = { intraRackMbps: 10000, interRackMbps: 1000 };
    const c = await svc.client(farmer).POST('/v1/clusters', { body: { name: 'net', metrics: ['cpu', 'ram'], nodes: NODES, network } });
    assert.equal(c.response.status, 201, JSON.stringify(c.error));
    assert.deepEqual(c.data!.network, network);
    const v2 = await svc.client(farmer).PUT('/v1/clusters/{id}', { params: { path: { id: c.data!.id } }, body: { metrics: ['cpu', 'ram'], nodes: NODES } });
    assert.equal(v2.data!.network, null, 'a version without it has none');
    await svc.client(farmer).PUT('/v1/clusters/{id}', { params: { path: { id: c.data!.id } }, body: { metrics: ['cpu', 'ram'], nodes: NODES, network } });
    const batch = await svc.client(customer).POST('/v1/batches', {
      body: { name: 'b', jobs: [{ id: 'j', stages: [{ id: 'map', tasks: 2, demand: { cpu: 1, ram: 1 }, durationSeconds: 60, inputMB: 128, blocks: [['a1'], ['b1']] }] }] as never },
    });
    assert.equal(batch.response.status, 201, JSON.stringify(batch.error));
    const s = await svc.client(customer).POST('/v1/solves', { body: { clusterId: c.data!.id, batchId: batch.data!.id, horizon: { slots: 10, slotSeconds: 60 }, strategy: 'rffd', timeBudgetMs: 300 } });
    assert.equal(s.response.status, 202, JSON.stringify(s.error));
    const [row] = await svc.sql<{ network: unknown }>("SELECT instance->'network' AS network FROM solves WHERE id = $1", [s.data!.id]);
    assert.deepEqual(row.network, network);
    // A block on a node the cluster does not have is named at the batch's path when solving.
    const stray = await svc.client(customer).POST('/v1/batches', { body: { name: 'c', jobs: [{ id: 'j', stages: [{ id: 'map', tasks: 1, demand: { cpu: 1 }, durationSeconds: 60, blocks: [['z9']] }] }] as never } });
    const bad = await svc.client(customer).POST('/v1/solves', { body: { clusterId: c.data!.id, batchId: stray.data!.id, horizon: { slots: 10, slotSeconds: 60 }, strategy: 'rffd', timeBudgetMs: 300 } });
    assert.equal(bad.response.status, 422);
    assert.match(JSON.stringify(bad.error), /blocks\[0\]\[0\].*unknown node \\"z9\\"/);
    void waitFor;
  });
});
