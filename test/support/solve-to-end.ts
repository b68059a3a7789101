/** A solve posted and waited for, as the service tests of one solve option need it: the request's answer, the ended solve and its plan. */
import assert from 'node:assert/strict';
import type { FallowClient } from '../../src/client';
import { waitFor } from '../../harness/service';

type Json = any;

/** Posts `body` to /v1/solves (a 202), waits for the solve to succeed and reads its plan. */
export async function solveToEnd(c: FallowClient, body: Json): Promise<{ posted: Json; solve: Json; plan: Json }> {
  const r = await c.POST('/v1/solves', { body });
  assert.equal(r.response.status, 202, JSON.stringify(r.error));
  const solve = await waitFor('the solve to end', async () => {
    const s = await c.GET('/v1/solves/{id}', { params: { path: { id: r.data!.id } } });
    return s.data && ['succeeded', 'failed', 'cancelled'].includes(s.data.status) ? s.data : undefined;
  }, 60_000);
  assert.equal(solve.status, 'succeeded', solve.error ?? '');
  const plan = await c.GET('/v1/plans/{id}', { params: { path: { id: solve.planId! } } });
  assert.equal(plan.response.status, 200, JSON.stringify(plan.error));
  return { posted: r.data, solve, plan: plan.data };
}
