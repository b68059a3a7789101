/**
 * The second thread of a POSUM run that shares its look-aheads (SimulateOptions.lookAheadThreads 2): it runs the
 * same run as side 1 of policies/posum/look-ahead-peer.ts, simulating its half of every decision's members. Its
 * report is the caller's too, so it answers nothing.
 */
import { compile } from './model/model';
import { LookAheadThreadInput, simulatePolicy } from './simulation';
import { serveThread } from './threads/thread-entry';

serveThread<LookAheadThreadInput, never, null>((input) => {
  simulatePolicy(compile(input.doc), input.policy, input.options, input.buffer);
  return null;
});
