/**
 * Part 1 of the service benchmark: storing a plan as the worker does (LongWorkRepository.finish with
 * PlansRepository.insert) for a 10,000-assignment plan, on fresh solve rows.
 */
import { performance } from 'node:perf_hooks';
import { DataSource } from 'typeorm';
import { evaluatePlan } from '../../src/engine/evaluate/evaluate';
import { explainRejections } from '../../src/engine/evaluate/rejections';
import { loadInstance, stageKey } from '../../src/engine/model/model';
import { InstanceDoc, PlanDoc } from '../../src/engine/model/types';
import { solve } from '../../src/engine/solve';
import { dataSourceOptions } from '../../src/modules/database/data-source';
import { PlansRepository } from '../../src/modules/plans/plans.repository';
import { PlanAssignmentEntity, PlanEntity } from '../../src/modules/plans/plan.entity';
import { SOLVE_WORK } from '../../src/modules/solves/solve.kind';
import { LongWorkRepository } from '../../src/modules/work/work.repository';
import { WorkEndings } from '../../src/modules/work/work-endings';
import { largeInstance } from '../../harness/load-speed';
import { Service } from '../../harness/service';
import { summarize } from '../lib/stats';
import { round2 } from './util';
import { StoreResult, TARGET_STORE_MS } from './results';

/** The document the worker stores (solve.processor.ts + solve-thread.ts): plan + kpis + rejections, and the ends. */
function storedDocument(instance: InstanceDoc, plan: PlanDoc): { document: PlanDoc & Record<string, unknown>; ends: number[] } {
  const model = loadInstance(instance);
  const evaluation = evaluatePlan(model, plan);
  if (!evaluation.ok) throw new Error(`the generated plan is infeasible: ${evaluation.violations.slice(0, 3).join('; ')}`);
  const ends = plan.assignments.map((a) => a.start + model.stages[model.stageIndex.get(stageKey(a.job, a.stage))!].dur[model.nodeIndex.get(a.node)!]);
  const { jobs: _perJob, ...kpis } = evaluation.kpis;
  return { document: { ...plan, kpis, rejections: explainRejections(model, plan) }, ends };
}

export async function benchStore(svc: Service, tenantId: string, reps: number, tasks: number, log: (m: string) => void): Promise<StoreResult> {
  const instance = largeInstance(tasks, 100, 1000, 1);
  instance.name = `large-${tasks}t-100n-1000s-s1`;
  log(`store: solving ${instance.name} with rffd (5 s) for a realistic plan document`);
  const plan = await solve(loadInstance(instance), { strategy: 'rffd', timeBudgetMs: 5000, seed: 1 });
  const { document, ends } = storedDocument(instance, plan);
  const documentBytes = Buffer.byteLength(JSON.stringify(document));
  log(`store: plan with ${plan.assignments.length} assignments (${plan.rejected.length} jobs rejected), document ${(documentBytes / 1e6).toFixed(2)} MB`);
  const instanceJson = JSON.stringify(instance);

  const ds = new DataSource(dataSourceOptions(svc.config.databaseUrl));
  await ds.initialize();
  try {
    const repo = new PlansRepository(ds.getRepository(PlanEntity), ds.getRepository(PlanAssignmentEntity));
    const work = new LongWorkRepository(ds, new WorkEndings());
    const once = async (): Promise<number> => {
      // A fresh solve row as the worker sees it: running, holding the whole instance (1.3 MB of jsonb).
      const [row] = await ds.query(
        `INSERT INTO solves (tenant_id, status, strategy, time_budget_ms, seed, instance, instance_name, attempts, started_at, starts_at, forecast_choice)
         VALUES ($1, 'running', 'rffd', 5000, 1, $2::jsonb, $3, 1, now(), now(), 'none') RETURNING id`,
        [tenantId, instanceJson, instance.name],
      );
      const t0 = performance.now();
      // What the worker does at a solve's end: the plan and the solve's status in one transaction.
      let planId: string | null = null;
      await work.finish(SOLVE_WORK, row.id, 'succeeded', async (tx) => {
        planId = await repo.insert(tx, { tenantId, solveId: row.id, document, ends, clusterId: null, window: { startsAt: new Date(), slotSeconds: instance.horizon.slotSeconds, slots: instance.horizon.slots } });
        const progress = { elapsedMs: Number(plan.stats?.elapsedMs ?? 0), iterations: 0, scheduledTasks: plan.objective.scheduledTasks, makespanSlots: plan.objective.makespanSlots };
        return planId === null ? null : { planId, progress };
      });
      const ms = performance.now() - t0;
      if (!planId) throw new Error('store returned no plan id');
      const [c] = await ds.query('SELECT count(*)::int AS n FROM plan_assignments WHERE plan_id = $1', [planId]);
      const [s] = await ds.query('SELECT status, plan_id FROM solves WHERE id = $1', [row.id]);
      if (c.n !== plan.assignments.length || s.status !== 'succeeded' || s.plan_id !== planId)
        throw new Error(`store did not write what it should: ${c.n} rows, solve ${s.status} ${s.plan_id}`);
      return ms;
    };
    const warmups: number[] = [];
    for (let i = 0; i < 2; i++) warmups.push(round2(await once()));
    const samples: number[] = [];
    for (let i = 0; i < reps; i++) {
      samples.push(round2(await once()));
      log(`store: run ${i + 1}/${reps}: ${samples[i].toFixed(1)} ms`);
    }
    return {
      instance: instance.name,
      assignments: plan.assignments.length,
      documentBytes,
      warmups,
      samplesMs: samples,
      summary: summarize(samples),
      targetMs: TARGET_STORE_MS,
      note:
        `LongWorkRepository.finish(SOLVE_WORK) with PlansRepository.insert inside, on a DataSource from dataSourceOptions(url); each run on a fresh solves row (status running, ` +
        `holding the ${(instanceJson.length / 1e6).toFixed(1)} MB instance); wall time of the transaction including JSON serialisation of ` +
        `the document by the driver; ${warmups.length} warm-up runs excluded; rows verified after each run (outside the timing)`,
    };
  } finally {
    await ds.destroy();
  }
}

