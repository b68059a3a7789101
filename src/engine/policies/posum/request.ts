import type { Issue } from '../../model/types';
import { show } from '../../model/validate';
import { PROVISIONING_NAMES } from './provisioning';
import { FcWeights, scoreParamIssues } from '../../evaluate/posum-score';
import { LOOK_AHEAD_MODES, LookAheadMode, PORTFOLIO_DEFAULTS, PortfolioParams, portfolioParams } from './params';

/**
 * What a caller may say of POSUM (policy posum, or one member: an allocation policy with `provision`), as
 * it came: the API's JSON fields and the CLI's flags (turned into numbers) both go through here.
 */
export interface PortfolioRequest {
  provision?: unknown;
  delta?: unknown;
  alpha?: unknown;
  beta?: unknown;
  gamma?: unknown;
  periodSeconds?: unknown;
  lookAheadSeconds?: unknown;
  lsMember?: unknown;
  echoArrivals?: unknown;
  /** Decide also at every job's arrival (true, the default), or only every period (false, as the paper). */
  decideOnArrival?: unknown;
  /** How each look-ahead starts from the present: replay (the default) or rebuild (posum-policy.ts). */
  lookAheadMode?: unknown;
  /** Nodes plus-x leases and minus-x releases per period. */
  x?: unknown;
  /** maxbsd's ceiling on the bounded slowdown. */
  maxBoundedSlowdown?: unknown;
}

/** Every bad field, each named by its path in the request. */
export function portfolioRequestIssues(r: PortfolioRequest): Issue[] {
  const issues: Issue[] = [];
  const number = (field: keyof PortfolioRequest, ok: (x: number) => boolean, what: string) => {
    const v = r[field];
    if (v !== undefined && !(typeof v === 'number' && Number.isFinite(v) && ok(v))) issues.push({ path: field, message: `must be ${what}, got ${show(v)}` });
  };
  if (r.provision !== undefined && !(PROVISIONING_NAMES as readonly unknown[]).includes(r.provision))
    issues.push({ path: 'provision', message: `must be one of ${PROVISIONING_NAMES.join(', ')}, got ${show(r.provision)}` });
  number('delta', (x) => x >= 0 && x <= 1, 'a number in [0, 1]');
  issues.push(...scoreParamIssues(r));
  number('periodSeconds', (x) => x > 0, 'a number of seconds > 0');
  number('lookAheadSeconds', (x) => x > 0, 'a number of seconds > 0');
  number('x', (x) => Number.isInteger(x) && x >= 0, 'an integer >= 0');
  number('maxBoundedSlowdown', (x) => x > 0, 'a number > 0');
  for (const field of ['lsMember', 'echoArrivals', 'decideOnArrival'] as const)
    if (r[field] !== undefined && typeof r[field] !== 'boolean') issues.push({ path: field, message: `must be true or false, got ${show(r[field])}` });
  if (r.lookAheadMode !== undefined && !(LOOK_AHEAD_MODES as readonly unknown[]).includes(r.lookAheadMode))
    issues.push({ path: 'lookAheadMode', message: `must be one of ${LOOK_AHEAD_MODES.join(', ')}, got ${show(r.lookAheadMode)}` });
  else if (r.lsMember === true && r.lookAheadMode === 'replay')
    issues.push({ path: 'lookAheadMode', message: 'must be rebuild with lsMember: a replay cannot follow the plans of past ls choices' });
  return issues;
}

/**
 * The request as parameters, defaults for the rest (`weights`: the caller's default alpha, beta, gamma, e.g.
 * its tenant's), filled by portfolioParams as the engine's callers' are; call once portfolioRequestIssues found nothing.
 */
export function portfolioFromRequest(r: PortfolioRequest, weights: FcWeights = PORTFOLIO_DEFAULTS.weights): PortfolioParams {
  const n = (v: unknown) => (typeof v === 'number' ? v : undefined);
  const b = (v: unknown) => (typeof v === 'boolean' ? v : undefined);
  return portfolioParams(
    given({
      lsMember: r.lsMember === true,
      lookAheadMode: r.lookAheadMode as LookAheadMode | undefined,
      echoArrivals: b(r.echoArrivals),
      lookAheadSeconds: n(r.lookAheadSeconds),
      decideOnArrival: b(r.decideOnArrival),
      periodSeconds: n(r.periodSeconds),
      weights: given({ alpha: n(r.alpha), beta: n(r.beta), gamma: n(r.gamma) }),
      allocation: given({ delta: n(r.delta) }),
      provisioning: given({ x: n(r.x), maxBoundedSlowdown: n(r.maxBoundedSlowdown) }),
    }) as Partial<PortfolioParams>,
    weights,
  );
}

/** The fields given (not undefined): spreading an undefined over a default would erase it. */
function given<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
