import type { QosController } from '../qos/types';
import type { RuntimeTruth } from './truth';

/** How a run behaves (its physics and limits): every option of a Simulator but the provisioner (SimOptions). */
export interface SimSettings {
  qos: QosController;
  /**
   * How often the QoS controller checks each node, in simulated seconds: default QOS_PERIOD_SECONDS
   * (Salamander III-D: "periodically (e.g., every 100 ms)"). Below the slot length the controller sees the
   * regular customers' load move linearly within the slot (ActualUsage.within) and acts at the first
   * period after the load crosses its threshold (qos-clock.ts); equal to the slot length, it checks at slot
   * boundaries only, on each slot's value (the per-slot controller, for comparison). Every launch is also
   * checked at once, in both modes. Must be in (0, slotSeconds].
   */
  qosPeriodSeconds?: number;
  seed?: number;
  /** Stop the clock after this many window lengths even if tasks remain (relaunch storms). Default 10. */
  maxWindows?: number;
  /** Stop the clock at this time (seconds) if it comes before maxWindows (POSUM's replayed look-ahead). */
  stopAtSeconds?: number;
  /**
   * A running task that gets no CPU at all for this long is failed and relaunched elsewhere (Hadoop's
   * mapreduce.task.timeout, 600 s by default). Without it a task on a node whose regular customers take the
   * whole CPU waits forever: Salamander's controller only throttles CPU, it never kills for it.
   */
  stallTimeoutSeconds?: number;
  /**
   * Hadoop's mapreduce.job.reduce.slowstart.completedmaps: a stage after others may launch once this share
   * of every predecessor stage's tasks has ended; launched early, it fetches each predecessor task's output
   * as that task ends and computes once all of them have ended and their output has arrived (the shuffle
   * overlaps the maps; the container is held meanwhile). 1 (the default) keeps the strict barrier.
   */
  reduceSlowstart?: number;
  /**
   * What the tasks really take when it differs from the instance (a plan built on predicted durations
   * replayed against the truth). `trueSeconds`: per job and stage, seconds per task on a node of speed 1
   * (replacing work or durationSeconds); `runtimeSigma`: each task's runtime is further multiplied by a
   * lognormal factor of mean 1 and this log-scale spread, drawn per task from the seed.
   */
  runtimeTruth?: RuntimeTruth;
}

/** Salamander III-D: the QoS controller checks "periodically (e.g., every 100 ms)". */
export const QOS_PERIOD_SECONDS = 0.1;
/** The QoS period when none is asked for: 100 ms, never longer than the slot (an instance may have shorter slots). */
export const defaultQosPeriod = (slotSeconds: number): number => Math.min(QOS_PERIOD_SECONDS, slotSeconds);
/**
 * The shortest QoS period accepted, 1 ms: the next check is the next multiple of the period (qos-clock.ts
 * nextPoll), and with periods far below that, time / period passes 2^53 and the multiple rounds back to the
 * same instant, so the controller would reschedule itself at one time forever.
 */
export const MIN_QOS_PERIOD_SECONDS = 0.001;

/** Hadoop's default mapreduce.task.timeout: 10 minutes without progress. */
export const STALL_TIMEOUT_SECONDS = 600;
