/**
 * What a search may spend, and the one question every strategy, phase and thread asks of it: stop now?
 * (Timefold's `Termination` is the model.) A Budget is made once per solve from the request
 * (`Budget.start`), carries the deadline, the iteration limit and the stop request, and is passed down
 * whole: a phase narrows it (`with`), a strategy racing another gets a `child` it can be stopped through,
 * and another thread gets a copy (`toDoc` / `fromDoc`) that shares the stop request.
 */
import { newStopFlag, raiseStop, StopFlag, stopFlagBuffer, stopRaised, watchStopFlags } from './stop-flag';

/** A solve's wall-clock budget when the request names none: the API's, the CLI's and the engine's. */
export const DEFAULT_TIME_BUDGET_MS = 5000;

/** What a request says about its budget; what it leaves out takes the defaults. */
export interface BudgetRequest {
  /** Wall-clock budget in ms; the best plan is returned when it ends. Default DEFAULT_TIME_BUDGET_MS. */
  timeBudgetMs?: number;
  /** Stop after this many iterations instead (makes a solve reproducible for a seed). Default: no limit. */
  maxIterations?: number;
  /**
   * Raised (raiseStop) by the caller, from this thread or another, to stop early: the best plan so far is
   * still returned. A synchronous search reads it between steps, so it reaches a solve running on a
   * worker thread whose loop never yields to the event loop.
   */
  stop?: StopFlag;
}

/** A budget as plain data, for another thread (structured-clonable; the stop flags are shared, not copied). */
export interface BudgetDoc {
  startedAt: number;
  timeBudgetMs: number;
  deadline: number;
  maxIterations: number;
  /** The budget's own stop flag first, then those it also stops on. */
  stops: SharedArrayBuffer[];
}

export class Budget {
  private constructor(
    /** When the solve started (ms since epoch; Date.now() is the same clock in every thread of the process). */
    readonly startedAt: number,
    /** The request's whole budget (BudgetRequest.timeBudgetMs or its default), finishing included. */
    readonly timeBudgetMs: number,
    /** Absolute ms by which the search must return. */
    readonly deadline: number,
    readonly maxIterations: number,
    /** Own flag first (requestStop raises it), then the flags of the budgets this one was made from. */
    private readonly stops: readonly StopFlag[],
  ) {}

  /** The budget a request asks for, its clock started now: the one place the defaults are applied. */
  static start(request: BudgetRequest, startedAt = Date.now()): Budget {
    const ms = request.timeBudgetMs ?? DEFAULT_TIME_BUDGET_MS;
    // Checked here, not when the budget is first handed to a thread: only a shared flag reaches one.
    if (request.stop) stopFlagBuffer(request.stop);
    const outer = request.stop ? [request.stop] : [];
    return new Budget(startedAt, ms, startedAt + ms, request.maxIterations ?? Number.POSITIVE_INFINITY, [newStopFlag(), ...outer]);
  }

  /** The budget another thread handed over (toDoc), on the same stop flags. */
  static fromDoc(doc: BudgetDoc): Budget {
    return new Budget(doc.startedAt, doc.timeBudgetMs, doc.deadline, doc.maxIterations, doc.stops.map((b) => new Int32Array(b)));
  }

  toDoc(): BudgetDoc {
    return { startedAt: this.startedAt, timeBudgetMs: this.timeBudgetMs, deadline: this.deadline, maxIterations: this.maxIterations, stops: this.stops.map(stopFlagBuffer) };
  }

  /**
   * The same stop request under another deadline or iteration limit (a phase's share, an episode's): the
   * values given replace this budget's, they are not combined with them, so the caller decides.
   */
  with(limits: { deadline?: number; maxIterations?: number }): Budget {
    return new Budget(this.startedAt, this.timeBudgetMs, limits.deadline ?? this.deadline, limits.maxIterations ?? this.maxIterations, this.stops);
  }

  /**
   * A budget that stops when this one does or when its own stop is requested (`own`, e.g. a thread's
   * stop flag; a fresh one by default): how one side of a race is stopped without stopping the other.
   */
  child(own: StopFlag = newStopFlag()): Budget {
    return new Budget(this.startedAt, this.timeBudgetMs, this.deadline, this.maxIterations, [own, ...this.stops]);
  }

  /** Stop now: the iteration limit is reached, the deadline has passed or a stop was requested. */
  stopNow(iterations: number): boolean {
    return iterations >= this.maxIterations || Date.now() >= this.deadline || this.stopRequested();
  }

  /**
   * For the long synchronous phases inside one iteration (a construction, a justification): true once
   * the search must stop, ignoring the iteration limit so that reproducible runs stay reproducible.
   */
  deadlineCheck(): () => boolean {
    return () => Date.now() >= this.deadline || this.stopRequested();
  }

  /** A stop was requested (not the clock): of this budget, or of one it was made from. */
  stopRequested(): boolean {
    for (const f of this.stops) if (stopRaised(f)) return true;
    return false;
  }

  /** Stops this budget and its children, in every thread that holds them; not the budget it was made from. */
  requestStop(): void {
    raiseStop(this.stops[0]);
  }

  /** The flag requestStop raises, for a thread that must request this budget's stop itself (a solver's proof). */
  get stopFlag(): StopFlag {
    return this.stops[0];
  }

  /**
   * Runs an asynchronous wait (a solver thread) with an AbortSignal that aborts once a stop is requested,
   * at once from this thread and within a few ms from another; not at the deadline, which a wait
   * enforces with its own clocks.
   */
  async abortable<T>(wait: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const ctrl = new AbortController();
    const unwatch = watchStopFlags(this.stops, () => ctrl.abort(new Error('stop requested')));
    try {
      return await wait(ctrl.signal);
    } finally {
      unwatch();
    }
  }
}
