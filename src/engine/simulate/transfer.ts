/**
 * Network model for chunk transfers: each node receives over its own link of `bandwidthMbps`
 * (Salamander IV-A: dedicated 50 Mbps links), one transfer after the other. Serialising the transfers to
 * a node ends the last of them when fair sharing of the link would, and keeps the model event-free
 * (the end time is known at the start). A node without `bandwidthMbps` moves data instantly: the bytes
 * still count in `bytesMoved`, only the time is free.
 */
export function transferSeconds(mb: number, bandwidthMbps: number | undefined): number {
  if (!(mb > 0) || bandwidthMbps === undefined || !(bandwidthMbps > 0)) return 0;
  return (mb * 8) / bandwidthMbps;
}

export class Link {
  /** When the link finishes what it was already asked to move. */
  freeAt = 0;

  constructor(readonly bandwidthMbps: number | undefined) {}

  /** Queues a transfer of `mb` requested at `now`; returns the time it ends. */
  reserve(now: number, mb: number): number {
    return this.reserveSeconds(now, transferSeconds(mb, this.bandwidthMbps));
  }

  /** Queues a transfer that takes `seconds` on its own (its rate set by the network path, not this link). */
  reserveSeconds(now: number, seconds: number): number {
    const start = Math.max(now, this.freeAt);
    this.freeAt = start + seconds;
    return this.freeAt;
  }
}

/**
 * Time to stage a job's chunks before it starts (Salamander III-C, Hadoop's ClientNode streaming chunks
 * to DataNodes): every node receives its share over its own link in parallel, so the job waits for the
 * node that receives the most.
 */
export function stagingSeconds(mbPerNode: ArrayLike<number>, bandwidthMbps: ArrayLike<number | undefined>): number {
  let worst = 0;
  for (let k = 0; k < mbPerNode.length; k++) worst = Math.max(worst, transferSeconds(mbPerNode[k], bandwidthMbps[k]));
  return worst;
}
