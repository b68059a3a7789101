import type { Model } from '../model/model';
import type { Issue } from '../model/types';
import type { Driver, Provisioner } from '../simulate/driver';
import type { Strategy } from '../contracts/strategy';

/**
 * What a policy is given when a simulation starts (the online twin of StrategyContext). `posum`: POSUM's
 * parameters with the defaults filled once (policies/posum/params.ts portfolioParams), typed by the family
 * that reads them (Policy<PortfolioParams>) so that this contract imports no family; the other families
 * ignore them. `strategy`: the registered strategies by name (what solve() gives StrategyContext.strategy),
 * for a policy that plans with one (POSUM's ls member) without importing its folder.
 */
export interface PolicyContext<PosumParams = unknown> {
  model: Model;
  posum: PosumParams;
  strategy?: (name: string) => Strategy | undefined;
}

/** One simulation's policy: the driver the simulator calls, and what it adds to the report. */
export interface PolicyRun {
  /** Who decides where and when tasks run (the simulator's Driver). */
  driver: Driver;
  /** A provisioner of its own (POSUM's portfolio leases through its members'); absent: the caller's `provision`, if any. */
  provisioner?: Provisioner;
  /** Its own trail for the report once the run is over (POSUM's `decisions`), as a strategy's `stats`. */
  report?(): Record<string, unknown>;
}

/**
 * An online policy (the online twin of Strategy): registered by name in policies/index.ts, one folder per
 * family under policies/, each importing only this contract, the shared dispatch bases (policies/dispatch/)
 * and the engine below them, never another family.
 */
export interface Policy<PosumParams = unknown> {
  name: string;
  description: string;
  /**
   * The parameters check: every bad field of what a caller said of this policy's parameters (the API's
   * JSON fields, the CLI's flags, as they came), each named by its path; absent: the policy takes none.
   */
  issues?(request: Readonly<Record<string, unknown>>): Issue[];
  create(ctx: PolicyContext<PosumParams>): PolicyRun;
}
