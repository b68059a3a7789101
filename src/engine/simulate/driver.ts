/**
 * Who decides where and when tasks run (Driver) and the task life cycle (TaskState). They are declared
 * in simulator.ts, next to the Simulator they refer to, so that the two files do not import each other.
 */
export { TaskState } from './simulator';
export type { Driver } from './simulator';
