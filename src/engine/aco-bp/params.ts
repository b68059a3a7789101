/**
 * Every constant of ACO-BP, with the paper's value as default where it gives one (section IV-A, L307-313)
 * and, where it is silent, the Ant Colony System defaults of Dorigo and Gambardella (1997) that its
 * reference [39] builds on.
 */
export interface AcoBpParams {
  /** Bins optimised together by one colony (the paper's window of 10 VMs). */
  windowBins: number;
  /** Combinations kept per bin (the paper's top 5, hence 5 x 5 pheromone edges between two bins). */
  topCombinations: number;
  /** Combinations are kept when RU_i is above this (the paper's 90%); a bin with none keeps its best. */
  ruThreshold: number;
  ants: number;
  iterations: number;
  /** A colony stops early once its best has not changed for this many iterations ("solution unchanged"). */
  stallIterations: number;
  /** Evaporation of the local and global pheromone updates (the paper's 0.5). */
  rho: number;
  /** Weight of the heuristic (a combination's RU) against the pheromone: ACS's beta (not in the paper). */
  beta: number;
  /** Probability of taking the best edge rather than sampling: ACS's q0 (not in the paper). */
  q0: number;
  /** C_t: seconds of schedule time between two decisions (the paper's 20 s). */
  periodSeconds: number;
  /** Share of the preferred rack's nodes, by map output, that may run reduces (the paper's top 50%). */
  reduceBinShare: number;
  /** Periods a ready reduce waits for its preferred nodes before any node may run it (not in the paper). */
  reducePatiencePeriods: number;
  /** Most combinations enumerated for one bin (the search stays bounded with many active jobs). */
  maxEnumerated: number;
}

export const ACO_BP_DEFAULTS: AcoBpParams = {
  windowBins: 10,
  topCombinations: 5,
  ruThreshold: 0.9,
  ants: 10,
  iterations: 50,
  stallIterations: 10,
  rho: 0.5,
  beta: 2,
  q0: 0.9,
  periodSeconds: 20,
  reduceBinShare: 0.5,
  reducePatiencePeriods: 1,
  maxEnumerated: 20_000,
};
