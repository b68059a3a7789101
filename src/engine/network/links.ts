import type { Model } from '../model/model';
/**
 * Network model for chunk reads and shuffles. Every node has one full-duplex link of `bandwidthMbps`
 * (Salamander IV-A: "dedicated links of 50 Mbps"): an uplink it sends on and a downlink it receives on.
 * A transfer from node s to node r runs at the slowest of s's link, r's link and, when the instance gives
 * a `network`, the rate between their racks. It is queued on s's uplink and on r's downlink, each link
 * serving its queue one transfer at a time at that rate, and it ends once it has passed both: at the later
 * of its two ends, so the busier of the two links (the bottleneck) sets it. Serialising a link's transfers
 * ends the last of them when fair sharing of that link would, every link is work-conserving (it never idles
 * with something queued), and the end is known at the start (no events). The two queues are not coupled:
 * a transfer may pass its uplink's queue at another time than its downlink's, which is optimistic when two
 * different crowds load its two ends at once. Coupling them (a transfer waits for both links to be free
 * and holds both) leaves gaps no later transfer can fill: measured on the 100k-task benchmark, it made a
 * shuffle bound by the receivers' links take seven times what those links need.
 * A rate nobody gives (no `bandwidthMbps`, no `network`) moves data instantly: the bytes still count, only
 * the time is free.
 */
export function transferSeconds(mb: number, bandwidthMbps: number | undefined): number {
  if (!(mb > 0) || bandwidthMbps === undefined || !(bandwidthMbps > 0)) return 0;
  return (mb * 8) / bandwidthMbps;
}

/** The slowest of the rates given (undefined = no limit); undefined when none is. */
export function bottleneckMbps(...rates: (number | undefined)[]): number | undefined {
  let out: number | undefined;
  for (const r of rates) if (r !== undefined && r > 0 && (out === undefined || r < out)) out = r;
  return out;
}

/**
 * Seconds to move `mb` from node `from` to node `to`: at the slowest of the two nodes' links and, when the
 * instance gives a `network`, the rate between their racks (the same rack or not).
 */
export function pathSeconds(model: Pick<Model, 'network' | 'racks'>, bandwidthMbps: readonly (number | undefined)[], mb: number, from: number, to: number): number {
  const net = model.network;
  const sameRack = model.racks[to] !== '' && model.racks[from] === model.racks[to];
  return transferSeconds(mb, bottleneckMbps(net ? (sameRack ? net.intraRackMbps : net.interRackMbps) : undefined, bandwidthMbps[from], bandwidthMbps[to]));
}

/** Every node's uplink and downlink, each a queue of transfers served one at a time (see the module comment). */
export class NodeLinks {
  private readonly upFreeAt: Float64Array;
  private readonly downFreeAt: Float64Array;
  /** While `begin()` is in force: per reservation, the sender, its uplink's and the receiver's previous free times, the receiver. */
  private readonly undoLog: number[] = [];
  private logging = false;

  constructor(readonly bandwidthMbps: readonly (number | undefined)[]) {
    this.upFreeAt = new Float64Array(bandwidthMbps.length);
    this.downFreeAt = new Float64Array(bandwidthMbps.length);
  }

  /** When node k's uplink has sent everything it was asked to. */
  uplinkFreeAt(k: number): number {
    return this.upFreeAt[k];
  }

  /** When node k's downlink has received everything it was asked to. */
  downlinkFreeAt(k: number): number {
    return this.downFreeAt[k];
  }

  /**
   * Queues a transfer of `seconds` (at its path's rate) from `from` to `to`, requested at `now`, on the
   * sender's uplink and on the receiver's downlink; returns when it has passed both (the later end).
   */
  reserve(now: number, from: number, to: number, seconds: number): number {
    if (this.logging) this.undoLog.push(from, this.upFreeAt[from], to, this.downFreeAt[to]);
    this.upFreeAt[from] = Math.max(now, this.upFreeAt[from]) + seconds;
    this.downFreeAt[to] = Math.max(now, this.downFreeAt[to]) + seconds;
    return Math.max(this.upFreeAt[from], this.downFreeAt[to]);
  }

  /** Starts recording reservations so that `undo()` can take them back (a launch the QoS controller kills at once, a what-if). */
  begin(): void {
    this.logging = true;
    this.undoLog.length = 0;
  }

  /** Keeps the reservations made since `begin()` and stops recording. */
  commit(): void {
    this.logging = false;
    this.undoLog.length = 0;
  }

  /** Takes back every reservation made since `begin()`, latest first, and stops recording. */
  undo(): void {
    const log = this.undoLog;
    for (let n = log.length - 4; n >= 0; n -= 4) {
      this.upFreeAt[log[n]] = log[n + 1];
      this.downFreeAt[log[n + 2]] = log[n + 3];
    }
    this.commit();
  }
}

/**
 * Time to stage a job's chunks before it starts (Salamander III-C, Hadoop's ClientNode streaming chunks
 * to DataNodes): every node receives its share over its own link in parallel, so the job waits for the
 * node that receives the most. The ClientNode is outside the cluster; its own link is not modelled.
 */
export function stagingSeconds(mbPerNode: ArrayLike<number>, bandwidthMbps: ArrayLike<number | undefined>): number {
  let worst = 0;
  for (let k = 0; k < mbPerNode.length; k++) worst = Math.max(worst, transferSeconds(mbPerNode[k], bandwidthMbps[k]));
  return worst;
}
