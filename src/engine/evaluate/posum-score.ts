/**
 * POSUM's performance score P = (V_D, S_B, C) (seeds/002, Table I) and its comparison F_c (Eq. 5).
 *
 * - V_D: the cumulated squared deadline violation of deadline jobs, sum over D of max(0, r_i - d_i)^2,
 *   divided by |D| (r_i: the job's runtime, end - release; d_i: its desired runtime, deadline - release);
 * - S_B: the cumulated bounded slowdown of batch jobs, sum over B of r_i / max(e_i, MinE), with e_i the
 *   total execution time of the job's tasks (Table I's words) and MinE a lower bound on it;
 * - C: node uptime in hours times each node's costPerHour (Table I counts uptime; the issue prices it).
 * All three are "lower is better". A job that has not ended counts with runtime up to `now`.
 * A KPI: the simulator scores runs and the evaluator plans with it (posum-kpi.ts); POSUM's choice among scores,
 * nearest the ideal point, is its own decision (policies/posum/choose.ts).
 */
export interface PosumScore {
  vd: number;
  sb: number;
  c: number;
}

export interface ScoredJob {
  /** `deadline` jobs count in V_D (a job of another class with a deadline too); the others in S_B. */
  deadlineJob: boolean;
  releaseSeconds: number;
  /** null: not ended (counts until `now`). */
  endSeconds: number | null;
  /** Desired end (deadline); null for a job without one. */
  deadlineSeconds: number | null;
  /** Sum of the runtimes of the job's tasks (e_i). */
  taskSeconds: number;
}

export interface ScoredNode {
  uptimeSeconds: number;
  /** Cost per hour of the node (0 when not given). */
  costPerHour: number;
}

export interface ScoreParams {
  /** MinE of Table I: the smallest e_i the slowdown divides by, seconds. */
  minExecutionSeconds: number;
}

export const SCORE_DEFAULTS: ScoreParams = { minExecutionSeconds: 10 };

export function posumScore(jobs: readonly ScoredJob[], nodes: readonly ScoredNode[], now: number, p: ScoreParams = SCORE_DEFAULTS): PosumScore {
  let violations = 0;
  let deadlineJobs = 0;
  let sb = 0;
  for (const j of jobs) {
    const runtime = (j.endSeconds ?? now) - j.releaseSeconds;
    if (j.deadlineJob && j.deadlineSeconds !== null) {
      deadlineJobs++;
      const late = Math.max(0, runtime - (j.deadlineSeconds - j.releaseSeconds));
      violations += late * late;
    } else sb += runtime / Math.max(j.taskSeconds, p.minExecutionSeconds);
  }
  let c = 0;
  for (const n of nodes) c += (n.uptimeSeconds / 3600) * n.costPerHour;
  return { vd: deadlineJobs ? violations / deadlineJobs : 0, sb, c };
}

/** Eq. 5's weights: normalisation and importance of each component (operator-set; per request override). */
export interface FcWeights {
  alpha: number;
  beta: number;
  gamma: number;
}

export const FC_DEFAULTS: FcWeights = { alpha: 1, beta: 1, gamma: 1 };

/** Eq. 5: F_c(P1, P2) = alpha |V_D1 - V_D2| + beta |S_B1 - S_B2| + gamma |C1 - C2|. */
export function fc(a: PosumScore, b: PosumScore, w: FcWeights = FC_DEFAULTS): number {
  return w.alpha * Math.abs(a.vd - b.vd) + w.beta * Math.abs(a.sb - b.sb) + w.gamma * Math.abs(a.c - b.c);
}

/**
 * A complete set of weights (a tenant's default): all three numbers >= 0, not all 0 (with every weight 0 all
 * members tie and the first always wins, which is no choice at all). Every problem, each with its field.
 */
export function weightsIssues(w: { alpha?: unknown; beta?: unknown; gamma?: unknown } | null | undefined): { path: string; message: string }[] {
  if (!w || typeof w !== 'object') return [{ path: 'alpha', message: 'alpha, beta and gamma are required' }];
  const out = scoreParamIssues(w);
  for (const k of ['alpha', 'beta', 'gamma'] as const) if (w[k] === undefined) out.push({ path: k, message: 'is required: a number >= 0' });
  if (!out.length && w.alpha === 0 && w.beta === 0 && w.gamma === 0) out.push({ path: 'alpha', message: 'alpha, beta and gamma may not all be 0: every member would tie' });
  return out;
}

/** Checks weights and parameters; returns every problem with its field. */
export function scoreParamIssues(w: { alpha?: unknown; beta?: unknown; gamma?: unknown }, minExecutionSeconds?: unknown): { path: string; message: string }[] {
  const out: { path: string; message: string }[] = [];
  for (const k of ['alpha', 'beta', 'gamma'] as const) {
    const v = w[k];
    if (v !== undefined && !(typeof v === 'number' && Number.isFinite(v) && v >= 0)) out.push({ path: k, message: `must be a number >= 0, got ${JSON.stringify(v)}` });
  }
  if (minExecutionSeconds !== undefined && !(typeof minExecutionSeconds === 'number' && minExecutionSeconds > 0)) out.push({ path: 'minExecutionSeconds', message: `must be a number > 0, got ${JSON.stringify(minExecutionSeconds)}` });
  return out;
}

/**
 * The weights a solve uses: only strategy portfolio has any; each of alpha, beta, gamma is the request's
 * value, else the default's (the tenant's, for the service). A weight given to another strategy is an
 * issue naming it. One rule for the API and the CLI.
 */
export function resolveScoreWeights(
  strategy: string,
  given: { alpha?: number; beta?: number; gamma?: number },
  defaults: FcWeights = FC_DEFAULTS,
): { weights: FcWeights | null; issues: { path: string; message: string }[] } {
  const named = (['alpha', 'beta', 'gamma'] as const).filter((k) => given[k] !== undefined);
  if (strategy !== 'portfolio') return { weights: null, issues: named.map((k) => ({ path: k, message: `applies only to strategy portfolio, not ${strategy}` })) };
  const w = { alpha: given.alpha ?? defaults.alpha, beta: given.beta ?? defaults.beta, gamma: given.gamma ?? defaults.gamma };
  const issues = weightsIssues(w);
  return { weights: issues.length ? null : w, issues };
}
