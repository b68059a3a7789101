/** What both chart benchmarks (charts.ts, charts-load.ts) do first through the service: solve a plan to draw. */
import { waitFor } from '../../harness/service';
import type { FallowClient } from '../../src/client';

/** The plan of an `rffd` solve (1 s, this seed) of the instance, waited for. */
export async function solvedPlan(client: FallowClient, instance: unknown, seed: number): Promise<string> {
  const r = await client.POST('/v1/solves', { body: { instance: instance as never, strategy: 'rffd', timeBudgetMs: 1000, seed } as never });
  if (!r.data) throw new Error(`solve: ${JSON.stringify(r.error)}`);
  const done = await waitFor('the solve', async () => {
    const s = await client.GET('/v1/solves/{id}', { params: { path: { id: r.data!.id } } });
    return s.data && ['succeeded', 'failed'].includes(s.data.status) ? s.data : undefined;
  }, 300_000);
  if (!done.planId) throw new Error(`the solve ${done.status}: ${done.error}`);
  return done.planId;
}
