/**
 * GET /v1/solves/{id}/instance (issue 37): the instance a solve solved, for its customer and operators, so that a
 * plan can be checked against exactly what the engine got (reserved capacity included); another tenant gets 404.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InstanceDoc } from '../../src/engine/model/types';
import { Service, startService } from '../../harness/service';

function inline(): InstanceDoc {
  return {
    format: 'fallow.instance/v1',
    name: 'solve-instance',
    horizon: { slots: 6, slotSeconds: 300 },
    metrics: ['cpu'],
    nodes: [
      { id: 'h01', capacity: { cpu: 8 }, maxTasks: 4 },
      { id: 'h02', capacity: { cpu: 8 } },
    ],
    usage: { h01: { cpu: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6] } },
    reserved: { h01: { cpu: [2, 2], tasks: [1, 1, 1] } },
    jobs: [{ id: 'j0', stages: [{ id: 'map', tasks: 2, demand: { cpu: 1 }, durationSeconds: 300 }] }],
  };
}

describe('GET /v1/solves/{id}/instance', () => {
  let svc: Service;
  let mine: { id: string; keys: Record<string, string> };
  let other: { id: string; keys: Record<string, string> };
  let solveId: string;

  before(async () => {
    svc = await startService();
    mine = await svc.tenant('instance-a', ['customer']);
    other = await svc.tenant('instance-b', ['customer']);
    const r = await svc.client(mine.keys.customer).POST('/v1/solves', { body: { instance: inline() as never, strategy: 'rffd', timeBudgetMs: 300 } });
    assert.equal(r.response.status, 202, JSON.stringify(r.error));
    solveId = r.data!.id;
  });
  after(async () => svc?.close());

  const get = (key: string, id = solveId) => svc.client(key).GET('/v1/solves/{id}/instance', { params: { path: { id } } });

  it('gives its customer the instance the solve solved, reserved capacity included', async () => {
    const r = await get(mine.keys.customer);
    assert.equal(r.response.status, 200, JSON.stringify(r.error));
    assert.deepEqual(r.data, inline());
  });

  it('gives it to an operator too', async () => {
    const r = await get(svc.operatorKey);
    assert.equal(r.response.status, 200, JSON.stringify(r.error));
    assert.equal((r.data as InstanceDoc).name, 'solve-instance');
  });

  it("is 404 for another tenant's key and for a solve that does not exist", async () => {
    assert.equal((await get(other.keys.customer)).response.status, 404);
    assert.equal((await get(mine.keys.customer, '00000000-0000-4000-8000-000000000000')).response.status, 404);
  });
});
