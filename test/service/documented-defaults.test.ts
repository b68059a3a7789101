/**
 * Every default the OpenAPI document gives a solve, re-plan, plan simulation, policy simulation or re-planning setting is what the
 * service applies: the defaults are read from the document the code generates (schema `default`s) and compared
 * with what a request that leaves the fields out gets back (the stored settings the API returns). A default
 * changed on one side only (the decorator or the service) fails here.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Service, startService, waitFor } from '../../harness/service';
import { openApiDocument } from '../../src/ops/main';

type Json = any;

const S = 300;
const SLOTS = 12;
const CLUSTER = { name: 'defaults', metrics: ['cpu', 'ram'], nodes: [{ id: 'n1', capacity: { cpu: 4, ram: 16 }, speed: 1 }] };
const FORECAST = { slotSeconds: S, slots: SLOTS, quantile: 0.9, usage: { n1: { cpu: Array(SLOTS).fill(0.25), ram: Array(SLOTS).fill(0.1) } } };
const JOBS = [{ id: 'j1', revenue: { onTime: 10, late: 0 }, stages: [{ id: 'map', tasks: 2, demand: { cpu: 1, ram: 2 }, durationSeconds: 600 }] }];

/** field -> documented default of a request body's schema (moved under components.requestBodies when defaulted: src/api/openapi.ts). */
function documentedDefaults(doc: Json, name: string): Record<string, unknown> {
  const schema = doc.components.requestBodies?.[name]?.content['application/json'].schema ?? doc.components.schemas[name];
  assert.ok(schema, `the document has no request body ${name}`);
  return Object.fromEntries(Object.entries(schema.properties as Record<string, Json>).filter(([, p]) => 'default' in p).map(([k, p]) => [k, p.default]));
}

/** Each documented default against what was applied (`observed(field)`), every defaulted field accounted for. */
function assertApplied(what: string, documented: Record<string, unknown>, observed: Record<string, unknown>, notEchoed: string[]): void {
  assert.deepEqual(Object.keys(documented).sort(), [...Object.keys(observed), ...notEchoed].sort(), `${what}: the defaulted fields changed; check the new one here`);
  for (const [field, value] of Object.entries(observed)) assert.deepEqual(value, documented[field], `${what}.${field}: documented default ${JSON.stringify(documented[field])}, applied ${JSON.stringify(value)}`);
}

describe('documented defaults are the applied ones', () => {
  let svc: Service;
  let doc: Json;
  let customer: string;
  let farmer: string;
  let refs: { clusterId: string; forecastId: string; batchId: string };
  let solve: Json;

  before(async () => {
    doc = JSON.parse(JSON.stringify(await openApiDocument()));
    svc = await startService();
    svc.startWorker();
    const t = await svc.tenant('defaults', ['farmer', 'customer']);
    customer = t.keys.customer;
    farmer = t.keys.farmer;
    const f = svc.client(t.keys.farmer);
    const cluster = await f.POST('/v1/clusters', { body: CLUSTER as never });
    assert.equal(cluster.response.status, 201, JSON.stringify(cluster.error));
    const forecast = await f.POST('/v1/clusters/{clusterId}/forecasts', { params: { path: { clusterId: cluster.data!.id } }, body: FORECAST as never });
    assert.equal(forecast.response.status, 201, JSON.stringify(forecast.error));
    const batch = await svc.client(customer).POST('/v1/batches', { body: { name: 'defaults', jobs: JOBS as never } });
    assert.equal(batch.response.status, 201, JSON.stringify(batch.error));
    refs = { clusterId: cluster.data!.id, forecastId: forecast.data!.id, batchId: batch.data!.id };
    const r = await svc.client(customer).POST('/v1/solves', { body: refs });
    assert.equal(r.response.status, 202, JSON.stringify(r.error));
    solve = r.data;
  });
  after(async () => svc?.close());

  it('solves', () => {
    const { strategy, objective, timeBudgetMs, seed, shuffleAware, transfers, predictor } = solve;
    // allowStaleForecast is not stored: it only decides whether a stale forecast is a 422 or a warning.
    assertApplied('CreateSolveDto', documentedDefaults(doc, 'CreateSolveDto'), { strategy, objective, timeBudgetMs, seed, shuffleAware, transfers, predictor }, ['allowStaleForecast']);
  });

  it('plan simulations', async () => {
    const done = await waitFor('the solve to end', async () => {
      const r = await svc.client(customer).GET('/v1/solves/{id}', { params: { path: { id: solve.id } } });
      return r.data && ['succeeded', 'failed', 'cancelled'].includes(r.data.status) ? r.data : undefined;
    }, 60_000);
    assert.equal(done.status, 'succeeded', done.error ?? '');
    const r = await svc.client(customer).POST('/v1/plans/{planId}/simulations', { params: { path: { planId: done.planId! } }, body: {} });
    assert.equal(r.response.status, 202, JSON.stringify(r.error));
    const { qos, qosPeriodSeconds, seed, reduceSlowstart, runtimeSigma } = r.data!;
    assertApplied('CreateSimulationDto', documentedDefaults(doc, 'CreateSimulationDto'), { qos, qosPeriodSeconds, seed, reduceSlowstart, runtimeSigma }, []);
  });

  it('re-plans', async () => {
    const done = await waitFor('the solve to end', async () => {
      const r = await svc.client(customer).GET('/v1/solves/{id}', { params: { path: { id: solve.id } } });
      return r.data && ['succeeded', 'failed', 'cancelled'].includes(r.data.status) ? r.data : undefined;
    }, 60_000);
    const r = await svc.client(customer).POST('/v1/plans/{id}/replan', { params: { path: { id: done.planId! } }, body: {} });
    assert.equal(r.response.status, 202, JSON.stringify(r.error));
    const { assumeStartedAsPlanned, refresh } = r.data!.replan!;
    assertApplied('CreateReplanDto', documentedDefaults(doc, 'CreateReplanDto'), { assumeStartedAsPlanned, refresh }, []);
  });

  it('policy simulations and their POSUM parameters', async () => {
    const r = await svc.client(customer).POST('/v1/simulations', { body: { policy: 'hadoop', ...refs } });
    assert.equal(r.response.status, 202, JSON.stringify(r.error));
    const { qos, qosPeriodSeconds, seed, reduceSlowstart, runtimeSigma } = r.data!;
    const posum = r.data!.posum as Json;
    assertApplied(
      'CreatePolicySimulationDto',
      documentedDefaults(doc, 'CreatePolicySimulationDto'),
      {
        qos,
        qosPeriodSeconds,
        seed,
        reduceSlowstart,
        runtimeSigma,
        delta: posum.allocation.delta,
        periodSeconds: posum.periodSeconds,
        lsMember: posum.lsMember,
        decideOnArrival: posum.decideOnArrival,
        lookAheadMode: posum.lookAheadMode,
      },
      // as on a solve, allowStaleForecast is not stored: it only decides whether a stale forecast is a 422 or a warning
      ['allowStaleForecast'],
    );
    // A plan replay and a policy run differ in their QoS controller: the document says which is whose.
    assert.notEqual(documentedDefaults(doc, 'CreatePolicySimulationDto').qos, documentedDefaults(doc, 'CreateSimulationDto').qos);
  });

  it("a cluster's automatic re-planning", async () => {
    const r = await svc.client(farmer).PUT('/v1/clusters/{id}/replanning', { params: { path: { id: refs.clusterId } }, body: { enabled: true } });
    assert.equal(r.response.status, 200, JSON.stringify(r.error));
    const { on, forecastMissThreshold, forecastMissWindowSeconds, minIntervalSeconds } = r.data!;
    assertApplied('PutReplanningDto', documentedDefaults(doc, 'PutReplanningDto'), { on, forecastMissThreshold, forecastMissWindowSeconds, minIntervalSeconds }, []);
  });
});
