import { Model } from '../../model/model';
import { propagate, propagationApplies } from './propagate';
import { computeWindows } from './windows';

/**
 * Destructive lower bounding: for T = from, from + 1, ... asks the propagation (propagate.ts) whether
 * "every job ends by T" is contradictory; each refuted T proves the makespan above T. Returns the
 * first T it cannot refute (a valid lower bound when every job must run), or to + 1 when it refutes
 * them all. Each test costs milliseconds on RCPSP-size models, far less than a MILP solve.
 */
export function destructiveBound(model: Model, from: number, to: number, stop: () => boolean, shaveUntil = 0): number {
  if (!propagationApplies(model)) return from;
  let T = from;
  while (T <= to && !stop() && !propagate(model, computeWindows(model, T), shaveUntil)) T++;
  return T;
}
