import { PLAN_REPLAY_QOS, POLICY_RUN_QOS } from '../../engine/simulate/defaults';
import { QOS_PERIOD_SECONDS } from '../../engine/simulate/simulator';

/**
 * What a simulation request's omitted fields become: SimulationsService applies these and the DTOs'
 * decorators document them (their `default`s), so the document and the service cannot disagree.
 * qosPeriodSeconds is this or the slot length if that is shorter (defaultQosPeriod).
 */
export const PLAN_SIMULATION_DEFAULTS = {
  qos: PLAN_REPLAY_QOS,
  qosPeriodSeconds: QOS_PERIOD_SECONDS,
  seed: 1,
  reduceSlowstart: 1,
  runtimeSigma: 0,
} as const;

/** A policy run's: the same but for the QoS controller (Cuckoo's, where a plan replay has Salamander's). */
export const POLICY_SIMULATION_DEFAULTS = { ...PLAN_SIMULATION_DEFAULTS, qos: POLICY_RUN_QOS } as const;
