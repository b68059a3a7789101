import type { Issue } from '../../engine/model/types';
import { show } from '../../engine/model/validate';
import { PROVISIONING_NAMES } from '../../engine/policies/provisioning';
import type { PortfolioParams } from '../../engine/posum/portfolio';
import { portfolioParams } from '../../engine/simulate';

/** What a request may say of POSUM (policy posum, or one member: an allocation policy with `provision`). */
export interface PosumRequest {
  provision?: unknown;
  delta?: unknown;
  alpha?: unknown;
  beta?: unknown;
  gamma?: unknown;
  periodSeconds?: unknown;
  lookAheadSeconds?: unknown;
  lsMember?: unknown;
}

/** Every bad POSUM field, each named by its path. */
export function posumIssues(dto: PosumRequest): Issue[] {
  const issues: Issue[] = [];
  const number = (field: keyof PosumRequest, ok: (x: number) => boolean, what: string) => {
    const v = dto[field];
    if (v !== undefined && !(typeof v === 'number' && Number.isFinite(v) && ok(v))) issues.push({ path: field, message: `must be ${what}, got ${show(v)}` });
  };
  if (dto.provision !== undefined && !(PROVISIONING_NAMES as readonly unknown[]).includes(dto.provision))
    issues.push({ path: 'provision', message: `must be one of ${PROVISIONING_NAMES.join(', ')}, got ${show(dto.provision)}` });
  number('delta', (x) => x >= 0 && x <= 1, 'a number in [0, 1]');
  for (const f of ['alpha', 'beta', 'gamma'] as const) number(f, (x) => x >= 0, 'a number >= 0');
  number('periodSeconds', (x) => x > 0, 'a number of seconds > 0');
  number('lookAheadSeconds', (x) => x > 0, 'a number of seconds > 0');
  if (dto.lsMember !== undefined && typeof dto.lsMember !== 'boolean') issues.push({ path: 'lsMember', message: `must be true or false, got ${show(dto.lsMember)}` });
  return issues;
}

/** The request's POSUM fields as parameters (defaults for the rest); call after posumIssues found nothing. */
export function posumParams(dto: PosumRequest): PortfolioParams {
  const d = portfolioParams();
  const n = (v: unknown) => (typeof v === 'number' ? v : undefined);
  return portfolioParams({
    ...(dto.lsMember === true ? { lsMember: true } : {}),
    ...(n(dto.periodSeconds) !== undefined ? { periodSeconds: n(dto.periodSeconds) } : {}),
    ...(n(dto.lookAheadSeconds) !== undefined ? { lookAheadSeconds: n(dto.lookAheadSeconds) } : {}),
    weights: { alpha: n(dto.alpha) ?? d.weights.alpha, beta: n(dto.beta) ?? d.weights.beta, gamma: n(dto.gamma) ?? d.weights.gamma },
    allocation: { ...d.allocation, ...(n(dto.delta) !== undefined ? { delta: n(dto.delta) } : {}) },
  });
}
