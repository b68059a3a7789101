/**
 * What re-plans one running plan: the re-planning API's service (a solve of kind replan, `frozen` from the
 * plan's execution events and the plan itself as the hint). Automatic re-planning calls nothing else: it is
 * bound to ReplansService.replan in one place (ReplanningModule).
 */
export interface ReplanTrigger {
  /** Queues a re-plan of the plan, saying why; resolves to the re-plan's solve id, and rejects, saying why, when the plan cannot be re-planned. */
  replan(planId: string, reason: string): Promise<string>;
}

/** The Nest token ReplanTrigger is provided under. */
export const REPLAN_TRIGGER = Symbol('ReplanTrigger');
