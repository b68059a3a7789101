import type { Policy } from '../policy';
import { POSUM_ALLOCATIONS, PosumAllocation, PosumAllocationPolicy } from './allocation';
import type { PortfolioParams } from './params';
import { portfolioRequestIssues } from './request';

const DESCRIPTIONS: Record<PosumAllocation, string> = {
  'edls-sh': "POSUM's EDLS-Sh: deadline jobs get a share delta of the cluster (EDF), batch jobs the rest (largest slowdown first)",
  'edls-pr': "POSUM's EDLS-Pr: the deadline queue first with probability delta, else the batch queue",
  hsrtf: "POSUM's hSRTF: the job with the shortest predicted remaining time first",
  locf: "POSUM's LOCF: FIFO with delay scheduling for locality",
};

/**
 * POSUM's four allocation policies run alone (with `provision`, one member of its portfolio: the caller's
 * provisioning policy leases meanwhile), each with POSUM's allocation parameters.
 */
export const posumAllocations: Policy<PortfolioParams>[] = POSUM_ALLOCATIONS.map((allocation) => ({
  name: allocation,
  description: DESCRIPTIONS[allocation],
  issues: (request) => portfolioRequestIssues(request),
  create: ({ model, posum }) => ({ driver: new PosumAllocationPolicy(model, allocation, posum.allocation) }),
}));
