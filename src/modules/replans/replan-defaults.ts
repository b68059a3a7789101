import type { ReplanRefresh } from '../solves/solve-replan.dto';

/**
 * What a re-plan request's omitted fields become: ReplansService applies these and CreateReplanDto documents
 * them. strategy, timeBudgetMs and seed default to the re-planned plan's solve's, which no schema can state.
 */
export const REPLAN_DEFAULTS = {
  assumeStartedAsPlanned: true,
  refresh: 'current' as ReplanRefresh,
} as const;
