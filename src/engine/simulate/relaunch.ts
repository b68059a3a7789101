import type { SimulatorView } from './host';

/** The relaunch decision for one task: a node to launch it on now, or wait (-1). */
export interface RelaunchChoice {
  node: number;
  /** Waiting for a node that holds the chunk is expected to beat running it remotely now. */
  waitForLocal: boolean;
}

/**
 * Where Salamander's JobTracker relaunches a task the QoS controller killed, or one whose planned node has
 * no CPU left (Salamander III-C/D). The plan put the task's chunk on its planned node (scheduler-driven
 * placement), so re-placing it elsewhere makes it remote: III-C accepts that ("the chunk has to be
 * requested and placed on another node") and III-D's controller exists to keep the plan respected
 * ("the plan shifts" rather than the task moving). Among the nodes that have a free slot and room under
 * the actual load now:
 *   1. a node holding a replica of the chunk, the one with the most room: local, nothing to move;
 *   2. otherwise the plan shifts: wait for a replica holder when the expected wait plus its run there is
 *      shorter than fetching the chunk and running on the best remote node. The expected wait is the time
 *      to the next period: the QoS controller closed the node for the rest of this period, and the actual
 *      load only changes at period boundaries. A holder whose regular customers take its whole CPU is not
 *      waited for (how long that lasts is unknown: the Bitbrains VMs that do it stay saturated for a day),
 *      and a task waits at most once per attempt (`waited`), so a holder that stays full cannot hold it;
 *   3. otherwise the remote node with the most room (ties: the lowest index).
 */
export function relaunchTarget(sim: SimulatorView, i: number, waited: boolean): RelaunchChoice {
  let local = -1;
  let localRoom = -Infinity;
  let remote = -1;
  let remoteRoom = -Infinity;
  for (let k = 0; k < sim.model.K; k++) {
    if (sim.nodes[k].closed || sim.freeSlots(k) <= 0) continue;
    const room = sim.headroom(k, i);
    if (room < -1e-9) continue;
    if (sim.isLocal(i, k)) {
      if (room > localRoom + 1e-12) (local = k), (localRoom = room);
    } else if (room > remoteRoom + 1e-12) (remote = k), (remoteRoom = room);
  }
  if (local >= 0) return { node: local, waitForLocal: false };
  if (!waited) {
    const remoteCost = remote >= 0 ? sim.fetchSeconds(i, remote) + sim.runSeconds(i, remote) : Infinity;
    const wait = sim.nextPeriod() - sim.now;
    const holders = sim.replicas[i] ?? [];
    for (const k of holders) if (!sim.starved(k) && wait + sim.runSeconds(i, k) < remoteCost) return { node: -1, waitForLocal: true };
  }
  return { node: remote, waitForLocal: false };
}
