import type { InstanceDoc, Issue, JobSpec, StageSpec } from '../model/types';
import { predict, Prediction, PredictorChoice, PredictorParams, PREDICTOR_DEFAULTS, StageEvidence, StageQuery } from './predictors';
import { emptyStats, StageStats, TaskKind } from './stats';

/** What a tenant's runtime history holds for a batch (the database sums it; see src/modules/predictions). */
export interface TenantHistory {
  /** Map stages of past jobs per map class, and later stages per reduce class (the N most recent of each). */
  byMapClass: Map<string, StageStats>;
  byReduceClass: Map<string, StageStats>;
  /** The tenant's N most recent map stages and later stages, whatever their class. */
  recentMaps: StageStats | null;
  recentReduces: StageStats | null;
}

/** How one stage's duration was filled in: recorded in the solve and its plan. */
export interface StagePrediction {
  job: string;
  stage: string;
  /** The predictor that gave the value, or `default` for the stage's own defaultDurationSeconds. */
  predictor: Prediction['predictor'] | 'default';
  durationSeconds: number;
  samples: number;
  errorSeconds: number | null;
  source: Prediction['source'] | 'defaultDurationSeconds';
}

/** A stage without predecessors is a map stage; any other a reduce stage. */
export function stageKind(stage: StageSpec): TaskKind {
  return stage.after && stage.after.length > 0 ? 'reduce' : 'map';
}

/** Whether a stage leaves its durations to the history. */
export function needsPrediction(stage: StageSpec): boolean {
  const given = (x: unknown) => x !== undefined && x !== null;
  return !given(stage.work) && !given(stage.durationSeconds);
}

/** The classes a document's stages to predict would look up. */
export function historyKeys(doc: Pick<InstanceDoc, 'jobs'>): { mapClasses: string[]; reduceClasses: string[] } {
  const mapClasses = new Set<string>();
  const reduceClasses = new Set<string>();
  for (const job of doc.jobs ?? []) {
    if (!job?.stages?.some?.((s) => s && needsPrediction(s))) continue;
    if (typeof job.mapClass === 'string') mapClasses.add(job.mapClass);
    if (typeof job.reduceClass === 'string') reduceClasses.add(job.reduceClass);
  }
  return { mapClasses: [...mapClasses], reduceClasses: [...reduceClasses] };
}

/** The evidence and sizes the predictors get for one stage of a job (nothing of this job has run yet). */
export function stageQuery(job: JobSpec, stage: StageSpec, h: TenantHistory): StageQuery {
  const mapEvidence: StageEvidence = { current: emptyStats(), byClass: (job.mapClass && h.byMapClass.get(job.mapClass)) || null, byCustomer: h.recentMaps };
  const kind = stageKind(stage);
  const mb = (s: StageSpec) => (typeof s.inputMB === 'number' && s.inputMB > 0 ? s.inputMB * 1e6 : null);
  if (kind === 'map') return { kind, tasks: stage.tasks, inputBytesPerTask: mb(stage), mapInputBytes: null, own: mapEvidence, maps: null };
  const maps = job.stages.filter((s) => stageKind(s) === 'map');
  const sizes = maps.map((s) => (mb(s) ?? NaN) * s.tasks);
  const mapInputBytes = sizes.length > 0 && sizes.every(Number.isFinite) ? sizes.reduce((a, b) => a + b, 0) : null;
  return {
    kind,
    tasks: stage.tasks,
    inputBytesPerTask: null,
    mapInputBytes,
    own: { current: emptyStats(), byClass: (job.reduceClass && h.byReduceClass.get(job.reduceClass)) || null, byCustomer: h.recentReduces },
    maps: mapEvidence,
  };
}

/**
 * Fills in `durationSeconds` of every stage that gives neither it nor `work`, from the tenant's history
 * with the predictor asked for, else from the stage's `defaultDurationSeconds`. Returns a copy of the
 * document (the input is not changed), what was predicted, and an issue per stage nothing could fill.
 */
export function predictDurations<D extends Pick<InstanceDoc, 'jobs'>>(
  doc: D,
  history: TenantHistory,
  choice: PredictorChoice,
  params: PredictorParams = PREDICTOR_DEFAULTS,
): { doc: D; predictions: StagePrediction[]; issues: Issue[] } {
  const predictions: StagePrediction[] = [];
  const issues: Issue[] = [];
  const jobs = (doc.jobs ?? []).map((job, ji) => {
    if (!job || !Array.isArray(job.stages)) return job;
    const stages = job.stages.map((stage, si) => {
      if (!stage || typeof stage !== 'object' || !needsPrediction(stage)) return stage;
      const p = Number.isInteger(stage.tasks) ? predict(stageQuery(job, stage, history), choice, params) : null;
      if (p && Number.isFinite(p.seconds) && p.seconds > 0) {
        predictions.push({ job: job.id, stage: stage.id, predictor: p.predictor, durationSeconds: p.seconds, samples: p.samples, errorSeconds: p.errorSeconds, source: p.source });
        return { ...stage, durationSeconds: p.seconds };
      }
      if (typeof stage.defaultDurationSeconds === 'number' && stage.defaultDurationSeconds > 0) {
        predictions.push({ job: job.id, stage: stage.id, predictor: 'default', durationSeconds: stage.defaultDurationSeconds, samples: 0, errorSeconds: null, source: 'defaultDurationSeconds' });
        return { ...stage, durationSeconds: stage.defaultDurationSeconds };
      }
      issues.push({ path: `jobs[${ji}].stages[${si}]`, message: noHistoryMessage(job, stage, choice) });
      return stage;
    });
    return { ...job, stages };
  });
  return { doc: { ...doc, jobs }, predictions, issues };
}

function noHistoryMessage(job: JobSpec, stage: StageSpec, choice: PredictorChoice): string {
  const kind = stageKind(stage);
  const cls = kind === 'map' ? job.mapClass : job.reduceClass;
  const what = choice === 'auto' ? 'no predictor' : `the ${choice} predictor`;
  const needs = choice === 'standard' || choice === 'detailed' ? ' (it also needs inputMB on the map stages)' : '';
  return (
    `gives neither work nor durationSeconds, and ${what} can predict it${needs}: no completed ${kind} stage ` +
    `${cls ? `of ${kind} class "${cls}" nor ` : ''}of your recent jobs in the execution history; give work, durationSeconds or defaultDurationSeconds`
  );
}
