import { FC_DEFAULTS, FcWeights } from '../../evaluate/posum-score';
import { POSUM_ALLOCATION_DEFAULTS, POSUM_ALLOCATIONS, PosumAllocation, PosumAllocationParams } from './allocation';
import { PROVISIONING_DEFAULTS, PROVISIONING_NAMES, ProvisioningName, ProvisioningParams } from './provisioning';

/** POSUM's parameters (posum-policy.ts), their defaults, and its members. */
export interface PortfolioParams {
  periodSeconds: number;
  lookAheadSeconds: number;
  weights: FcWeights;
  /**
   * With the rebuilt look-ahead only (the replay scores as the simulator does):
   * score what a look-ahead leaves unfinished as draining on the capacity the member ends with (drainSeconds),
   * instead of as running until the window's end. Off by default: on bench:posum it made POSUM lease too
   * much (within 5% of the best member on 1 of 20 workloads, against 10 of 20 without it).
   */
  terminalDrain: boolean;
  /**
   * Beyond the paper: Fallow's `ls` joins as a seventeenth member (allocation `ls-plan`): it plans the present
   * within `lsBudgetMs` on the nodes up now, the look-ahead replays the plan, and when chosen the live run
   * follows it as a priority (ls-member.ts), releasing leases as minus-x does.
   */
  lsMember: boolean;
  /**
   * Beyond the paper: the look-ahead also expects recent arrivals to repeat (copies of those jobs, whole,
   * released one window later, and scored like the others; the window: the look-ahead when rebuilt,
   * `echoSeconds` when replayed). On by default with the
   * rebuilt look-ahead, where it put POSUM within 5% of its best member on 40 of 60 workloads against 27
   * without; off by default with the replayed one, the queue alone as in the paper (bench/POSUM.md, seeds 1-60:
   * within 5% of the best member on 86 of 120 workloads with it, 88 without; at or under the median member on
   * 116 either way; measured with the 600-s look-ahead and decisions every period only). Requests and portfolioParams() turn it on with `rebuild` when it is not given.
   */
  echoArrivals: boolean;
  lsBudgetMs: number;
  /**
   * How a look-ahead starts from the present: `rebuild` makes the state at the decision a new instance
   * (look-ahead.ts lookAhead); `replay` runs the workload known so far again with POSUM's past choices, reaching
   * the live state exactly (replay.ts; the default), from a copy of the live run at the slot's start (from time 0
   * with echoed arrivals). `lsMember` needs `rebuild` (a replay cannot
   * follow the plans of past ls choices).
   */
  lookAheadMode: LookAheadMode;
  /**
   * Beyond the paper: decide also when a job is submitted (once an instant), not only every `periodSeconds`. A
   * periodic decision lets the member chosen before the arrival place the new job's first tasks, which then run
   * for minutes whatever the next decision says; deciding at the arrival lets the look-ahead see the job first.
   * bench/POSUM.md, seeds 1-60: within 5% of the best member on 109 of 120 workloads with it and the look-ahead
   * to the end, 94 with that look-ahead alone.
   */
  decideOnArrival: boolean;
  /** With `echoArrivals` and the replay: the window whose arrivals repeat, one window later. */
  echoSeconds: number;
  allocation: PosumAllocationParams;
  provisioning: ProvisioningParams;
}

export const LOOK_AHEAD_MODES = ['replay', 'rebuild'] as const;
export type LookAheadMode = (typeof LOOK_AHEAD_MODES)[number];

/**
 * The replay's default look-ahead: a day, which in practice means until the submitted work is done (a replay stops
 * when no task is left). Scoring the whole known workload, not a window cut through it, judges a member also by the
 * jobs it pushes past the window (bench/POSUM.md, seeds 1-60: within 5% of the best member on 94 of 120 workloads
 * against 88 with 600 s). The rebuilt look-ahead keeps 600 s, where longer ones were measured worse.
 */
export const REPLAY_LOOK_AHEAD_SECONDS = 86_400;
export const REBUILD_LOOK_AHEAD_SECONDS = 600;

/**
 * The look-ahead mode, length and echo setting, given or by default (one rule for requests and stored parameters):
 * the ls member needs `rebuild` (parameters stored before the replay existed name no mode), otherwise `replay`;
 * the look-ahead runs to the end of the submitted work with `replay` and 600 s with `rebuild`; echoed arrivals are
 * on with `rebuild` (where they were measured to help) and off with `replay`.
 */
export function lookAheadSettings(p: { lsMember?: boolean; lookAheadMode?: LookAheadMode; echoArrivals?: boolean; lookAheadSeconds?: number }): {
  lookAheadMode: LookAheadMode;
  echoArrivals: boolean;
  lookAheadSeconds: number;
} {
  const lookAheadMode = p.lookAheadMode ?? (p.lsMember ? 'rebuild' : 'replay');
  const replay = lookAheadMode === 'replay';
  return { lookAheadMode, echoArrivals: p.echoArrivals ?? !replay, lookAheadSeconds: p.lookAheadSeconds ?? (replay ? REPLAY_LOOK_AHEAD_SECONDS : REBUILD_LOOK_AHEAD_SECONDS) };
}

export const PORTFOLIO_DEFAULTS: PortfolioParams = {
  periodSeconds: 120,
  lookAheadSeconds: REPLAY_LOOK_AHEAD_SECONDS,
  weights: FC_DEFAULTS,
  terminalDrain: false,
  lsMember: false,
  echoArrivals: false,
  lsBudgetMs: 200,
  lookAheadMode: 'replay',
  decideOnArrival: true,
  echoSeconds: 600,
  allocation: POSUM_ALLOCATION_DEFAULTS,
  provisioning: PROVISIONING_DEFAULTS,
};

export interface Member {
  allocation: PosumAllocation | 'ls-plan';
  provisioning: ProvisioningName;
}

/** The seventeenth member, when PortfolioParams.lsMember. */
export const LS_MEMBER: Member = { allocation: 'ls-plan', provisioning: 'minus-x' };

export const MEMBERS: Member[] = POSUM_ALLOCATIONS.flatMap((allocation) => PROVISIONING_NAMES.map((provisioning) => ({ allocation, provisioning })));

/**
 * POSUM's parameters with the defaults filled in: the one place that fills them, for the engine's callers
 * (simulation.ts) and for requests (request.ts portfolioFromRequest). `defaultWeights`: the alpha, beta, gamma
 * of any not given (a tenant's default, for the service).
 */
export function portfolioParams(p: Partial<PortfolioParams> = {}, defaultWeights: FcWeights = PORTFOLIO_DEFAULTS.weights): PortfolioParams {
  return {
    ...PORTFOLIO_DEFAULTS,
    ...p,
    ...lookAheadSettings(p),
    weights: { ...defaultWeights, ...p.weights },
    allocation: { ...PORTFOLIO_DEFAULTS.allocation, ...p.allocation },
    provisioning: { ...PORTFOLIO_DEFAULTS.provisioning, ...p.provisioning },
  };
}
