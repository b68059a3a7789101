import type { EventQueue } from './event-queue';

/** Event kinds, and their priority at the same instant: ends first, then the period tick, then starts. */
export const FINISH = 0;
export const FETCHED = 1;
export const TICK = 2;
export const RELEASE = 3;
export const TIMER = 4;
export const STALL = 5;
export const SAMPLE = 6;
export const NODE_UP = 7;
export const PROVISION = 8;
/** A QoS check of one node within a slot (qosPeriodSeconds below the slot length). */
export const CONTROL = 9;
/** A node is lost (an outage of the actual-usage input begins: its tasks are killed) or comes back (outages.ts). */
export const NODE_LOST = 10;
export const NODE_BACK = 11;
/** The caller asked the event loop to stop here (Simulator.pauseAt: a closed loop re-plans at that instant). */
export const PAUSE = 12;
/**
 * Same-time order: ends and fetches, then ticks, controls, stalls and node losses or returns, then a pause
 * (so that a re-plan at that instant sees the period's kills and none of its launches), then releases and
 * timers, last the sample (after every launch of that instant).
 */
const PRIORITY = [0, 0, 1, 3, 3, 1, 4, 1, 3, 1, 1, 1, 2];

/** Queues an event of `kind` at `time`, ordered among the same instant's events by the kind's priority. */
export function schedule(queue: EventQueue, time: number, kind: number, a = 0, b = 0): void {
  queue.push(time, PRIORITY[kind], kind, a, b);
}
