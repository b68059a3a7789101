/**
 * Runtime prediction against the real service (issue 23): execution events with bytes, locality and
 * reduce phases become the customer's runtime history; a batch that leaves durations out gets them from
 * it (preview, then a solve whose plan records every prediction); no history is a 422 naming the stage,
 * unless the stage gives defaultDurationSeconds; bad events are 422s naming events[i].field and write
 * nothing. The history: 4 maps of class WordCount (3 read 100 MB locally in 10 s, 1 remotely in 20 s,
 * each writes 50 MB) and 2 reduces of class Sum (100 MB each: 5 s shuffle, 2 s merge, 5 s reduce).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { problem } from '../support/problem';
import { Service, startService, stopChild, waitFor } from '../../harness/service';
import { DEFAULT_INPUT_LIMITS } from '../../src/engine/model/input-bounds';

type Json = any;
const T0 = Date.parse('2030-01-01T00:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();
const MB = 1e6;

const PAST = {
  format: 'fallow.instance/v1',
  name: 'past',
  horizon: { slots: 100, slotSeconds: 10 },
  metrics: ['cpu'],
  nodes: [{ id: 'n1', capacity: { cpu: 8 } }],
  jobs: [
    {
      id: 'p1',
      mapClass: 'WordCount',
      reduceClass: 'Sum',
      stages: [
        { id: 'map', tasks: 4, demand: { cpu: 1 }, durationSeconds: 10, inputMB: 100 },
        { id: 'red', tasks: 2, demand: { cpu: 1 }, durationSeconds: 12, after: ['map'] },
      ],
    },
  ],
};

function pastEvents(solveId: string) {
  const ev = (id: string, stage: string, task: number, type: string, s: number, extra: object = {}) => ({ id, solveId, job: 'p1', stage, task, node: 'n1', type, at: at(s), ...extra });
  const out: object[] = [];
  for (let t = 0; t < 4; t++) {
    out.push(ev(`m${t}s`, 'map', t, 'started', 0));
    out.push(ev(`m${t}f`, 'map', t, 'finished', t < 3 ? 10 : 20, { inputBytes: 100 * MB, outputBytes: 50 * MB, locality: t < 3 ? 'node' : 'remote' }));
  }
  for (let t = 0; t < 2; t++) {
    out.push(ev(`r${t}s`, 'red', t, 'started', 20));
    out.push(ev(`r${t}f`, 'red', t, 'finished', 32, { inputBytes: 100 * MB, shuffleEndAt: at(25), mergeEndAt: at(27) }));
  }
  return out;
}

/** A new job of the same classes: 6 maps of 200 MB, 3 reduces, no durations. */
const NEW_JOB = {
  id: 'n1',
  mapClass: 'WordCount',
  reduceClass: 'Sum',
  stages: [
    { id: 'map', tasks: 6, demand: { cpu: 1 }, inputMB: 200 },
    { id: 'red', tasks: 3, demand: { cpu: 1 }, after: ['map'] },
  ],
};

describe('runtime history and predicted durations', () => {
  let svc: Service;
  let customer: { id: string; keys: Record<string, string> };
  let farmer: { id: string; keys: Record<string, string> };
  let pastSolve: string;
  let clusterId: string;
  const count = async (table: string) => Number((await svc.sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0].n);
  const postEvents = (key: string, events: unknown[]) =>
    fetch(`${svc.baseUrl}/v1/executions/events`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ events }) }).then(
      async (r) => ({ status: r.status, body: (await r.json()) as Json }),
    );

  before(async () => {
    // Events of 2030: the window of event times (FALLOW_EVENT_MAX_AHEAD_SECONDS) reaches that far here.
    svc = await startService({ input: { ...DEFAULT_INPUT_LIMITS, eventMaxAheadSeconds: 10 * 366 * 86_400 } });
    customer = await svc.tenant('acme', ['customer']);
    farmer = await svc.tenant('dc', ['farmer']);
    const c = svc.client(customer.keys.customer);
    const solve = await c.POST('/v1/solves', { body: { instance: PAST as never, strategy: 'rffd', timeBudgetMs: 200 } });
    assert.equal(solve.response.status, 202, JSON.stringify(solve.error));
    pastSolve = solve.data!.id;
    const cluster = await svc.client(farmer.keys.farmer).POST('/v1/clusters', { body: { name: 'c', metrics: ['cpu'], nodes: [{ id: 'w1', capacity: { cpu: 8 } }] } as never });
    assert.equal(cluster.response.status, 201, JSON.stringify(cluster.error));
    clusterId = cluster.data!.id;
  });
  after(async () => svc?.close());

  it('bad events name events[i].field, all at once, and write nothing', async () => {
    const before = [await count('execution_events'), await count('stage_history')];
    const events = pastEvents(pastSolve) as Json[];
    const bad = [
      { ...events[1], id: 'b1', inputBytes: -5 },
      { ...events[3], id: 'b2', locality: 'moon' },
      { ...events[9], id: 'b3', shuffleEndAt: at(15) }, // the reduce started at 20 s (events[8], same request)
      { ...events[9], id: 'b4', mergeEndAt: at(40) }, // after the task finished at 32 s
      { ...events[0], id: 'b5', shuffleEndAt: at(1) }, // a started event has no phases
    ];
    const r = await postEvents(customer.keys.customer, [events[8], ...bad]);
    assert.equal(r.status, 422, JSON.stringify(r.body));
    assert.deepEqual(r.body.problems.map((p: Json) => p.path).sort(), ['events[1].inputBytes', 'events[2].locality', 'events[4].mergeEndAt', 'events[5].shuffleEndAt']);
    // The shuffle check needs the start, which is known only once the shape is right: a second round.
    const r2 = await postEvents(customer.keys.customer, [events[8], bad[2]]);
    assert.equal(r2.status, 422, JSON.stringify(r2.body));
    assert.deepEqual(r2.body.problems.map((p: Json) => [p.path, /before the task started/.test(p.message)]), [['events[1].shuffleEndAt', true]]);
    assert.deepEqual([await count('execution_events'), await count('stage_history')], before);
  });

  it('events build the history; a batch without durations is predicted from it, previewed and solved', async () => {
    const posted = await postEvents(customer.keys.customer, pastEvents(pastSolve));
    assert.equal(posted.status, 200, JSON.stringify(posted.body));
    const rows = await svc.sql<Json>('SELECT stage, kind, map_class, reduce_class, runtime_n, rate_local_n, rate_remote_n, shuffle_rate_n, first_shuffle_n, bytes_in, bytes_out FROM stage_history ORDER BY stage');
    assert.deepEqual(rows.map((r) => [r.stage, r.kind, r.map_class, r.reduce_class, r.runtime_n, r.rate_local_n, r.rate_remote_n, r.shuffle_rate_n, r.first_shuffle_n]), [
      ['map', 'map', 'WordCount', 'Sum', 4, 3, 1, 0, 0],
      ['red', 'reduce', 'WordCount', 'Sum', 2, 0, 0, 2, 0],
    ]);
    assert.deepEqual([rows[0].bytes_in, rows[0].bytes_out], [400 * MB, 200 * MB]);

    const c = svc.client(customer.keys.customer);
    const noHistory = { id: 'x', stages: [{ id: 'map', tasks: 1, demand: { cpu: 1 } }, { id: 'late', tasks: 1, demand: { cpu: 1 }, after: ['map'], defaultDurationSeconds: 30 }] };
    const batch = await c.POST('/v1/batches', { body: { name: 'new', jobs: [NEW_JOB] as never } });
    assert.equal(batch.response.status, 201, JSON.stringify(batch.error));
    const preview = async (predictor?: string) => {
      const r = await c.GET('/v1/batches/{id}/predictions', { params: { path: { id: batch.data!.id }, query: predictor ? { predictor: predictor as never } : {} } });
      assert.equal(r.response.status, 200, JSON.stringify(r.error));
      return Object.fromEntries(r.data!.predictions.map((p) => [p.stage, [p.predictor, round(p.durationSeconds), p.samples, p.source]]));
    };
    // Standard: maps 200 MB x mean(0.1, 0.1, 0.1, 0.2) s/MB = 25 s; reduces read f x D / R = 0.5 x 1200 MB / 3 = 200 MB at 0.12 s/MB = 24 s.
    assert.deepEqual(await preview('standard'), { map: ['standard', 25, 4, 'class'], red: ['standard', 24, 2, 'class'] });
    // Detailed: local maps at 0.1 s/MB = 20 s; reduces 200 MB x (0.05 + 0.02 + 0.05) s/MB = 24 s.
    assert.deepEqual(await preview('detailed'), { map: ['detailed', 20, 3, 'class'], red: ['detailed', 24, 2, 'class'] });
    // Basic: the mean runtime of the customer's recent maps (12.5 s) and reduces (12 s).
    assert.deepEqual(await preview('basic'), { map: ['basic', 12.5, 4, 'customer'], red: ['basic', 12, 2, 'customer'] });
    // Auto: nothing has 5 samples; the most samples wins, the more detailed on a tie.
    assert.deepEqual(await preview(), { map: ['standard', 25, 4, 'class'], red: ['detailed', 24, 2, 'class'] });
    problem(await c.GET('/v1/batches/{id}/predictions', { params: { path: { id: batch.data!.id }, query: { predictor: 'psychic' as never } } }), 422);

    const solve = await c.POST('/v1/solves', { body: { clusterId, batchId: batch.data!.id, horizon: { slots: 60, slotSeconds: 10 }, strategy: 'ls', timeBudgetMs: 500, predictor: 'detailed' } });
    assert.equal(solve.response.status, 202, JSON.stringify(solve.error));
    assert.equal(solve.data!.predictor, 'detailed');
    assert.deepEqual(solve.data!.predictions!.map((p) => [p.job, p.stage, p.predictor, round(p.durationSeconds)]), [['n1', 'map', 'detailed', 20], ['n1', 'red', 'detailed', 24]]);
    const worker = svc.startWorker();
    const done = await waitFor('the solve to end', async () => {
      const r = await c.GET('/v1/solves/{id}', { params: { path: { id: solve.data!.id } } });
      return r.data && ['succeeded', 'failed', 'cancelled'].includes(r.data.status) ? r.data : undefined;
    }, 60000);
    await stopChild(worker);
    assert.equal(done.status, 'succeeded', done.error ?? '');
    const plan = (await c.GET('/v1/plans/{id}', { params: { path: { id: done.planId! } } })).data as Json;
    assert.deepEqual(plan.predictions.map((p: Json) => [p.stage, p.predictor, round(p.durationSeconds), p.samples]), [['map', 'detailed', 20, 3], ['red', 'detailed', 24, 2]]);
    // Two slots per map (20 s), three per reduce (24 s): the plan's durations are the predicted ones.
    const rowsOf = await c.GET('/v1/plans/{id}/assignments', { params: { path: { id: done.planId! }, query: { limit: 100 } } });
    const lengths = new Set(rowsOf.data!.items.map((a) => `${a.stage}:${a.end - a.start}`));
    assert.deepEqual([...lengths].sort(), ['map:2', 'red:3']);

    // No history for a stage: a 422 naming it (a default fills it instead); nothing stored.
    const before = await count('solves');
    const b2 = await c.POST('/v1/batches', { body: { name: 'unknown', jobs: [noHistory] as never } });
    assert.equal(b2.response.status, 201, JSON.stringify(b2.error));
    // This customer has map history (class-less, by recency), so basic predicts the map; make it a brand-new tenant.
    const stranger = await svc.tenant('initech', ['customer']);
    const s = svc.client(stranger.keys.customer);
    const b3 = await s.POST('/v1/batches', { body: { name: 'unknown', jobs: [noHistory] as never } });
    const refused = await s.POST('/v1/solves', { body: { clusterId, batchId: b3.data!.id, horizon: { slots: 60, slotSeconds: 10 } } });
    const p = problem(refused, 422);
    assert.deepEqual(p.problems.map((x) => x.path), ['batch.jobs[0].stages[0]']);
    assert.match(p.problems[0].message, /neither work nor durationSeconds/);
    assert.equal(await count('solves'), before);
    const withDefaults = { ...noHistory, stages: noHistory.stages.map((st) => ({ ...st, defaultDurationSeconds: 30 })) };
    const b4 = await s.POST('/v1/batches', { body: { name: 'defaults', jobs: [withDefaults] as never } });
    const defaulted = await s.POST('/v1/solves', { body: { clusterId, batchId: b4.data!.id, horizon: { slots: 60, slotSeconds: 10 } } });
    assert.equal(defaulted.response.status, 202, JSON.stringify(defaulted.error));
    assert.deepEqual(defaulted.data!.predictions!.map((x) => [x.stage, x.predictor, x.durationSeconds, x.source]), [['map', 'default', 30, 'defaultDurationSeconds'], ['late', 'default', 30, 'defaultDurationSeconds']]);
    const ok = await c.POST('/v1/solves', { body: { clusterId, batchId: b2.data!.id, horizon: { slots: 60, slotSeconds: 10 }, predictor: 'basic' } });
    assert.equal(ok.response.status, 202, JSON.stringify(ok.error));
    assert.deepEqual(ok.data!.predictions!.map((x) => [x.stage, x.predictor, x.durationSeconds]), [['map', 'basic', 12.5], ['late', 'basic', 12]]);
  });
});

const round = (x: number) => Math.round(x * 1e6) / 1e6;
