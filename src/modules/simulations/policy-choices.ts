import { policyNames } from '../../engine/policies';

/** What a policy simulation may run: every online policy, and `posum`, the portfolio choosing among its members. */
export const SIMULATED_POLICIES: readonly string[] = policyNames();
