/**
 * The planner's picture of the nodes' links over time: per node and slot, the seconds of transfer its uplink
 * sends and its downlink receives. A link carries one transfer at a time (network/links.ts, the simulator's
 * model), so a slot holds at most slotSeconds of transfer per link, and a transfer placed on a link that is
 * already busy takes the link's free seconds slot after slot, ending later than it would on an idle link:
 * the contention a plan's padded `fetchSlots` prices (FORMAT.md, Transfers priced in plans).
 *
 * Arrays are made for a node the first time one of its links carries something, so an instance whose
 * transfers touch few nodes costs little.
 */
export class LinkLoad {
  private readonly up: (Float64Array | null)[];
  private readonly down: (Float64Array | null)[];
  /** Per node and link, made with the load: the skip links over full slots (open()); slots + 1 entries. */
  private readonly upNext: (Int32Array | null)[];
  private readonly downNext: (Int32Array | null)[];
  /** Per node, one past the last slot its uplink ever carried something in (never lowered: a bound). */
  private readonly upUntil: Int32Array;

  constructor(
    nodes: number,
    private readonly slots: number,
    private readonly slotSeconds: number,
  ) {
    this.up = new Array<Float64Array | null>(nodes).fill(null);
    this.down = new Array<Float64Array | null>(nodes).fill(null);
    this.upUntil = new Int32Array(nodes);
    this.upNext = new Array<Int32Array | null>(nodes).fill(null);
    this.downNext = new Array<Int32Array | null>(nodes).fill(null);
  }

  /** Node k's uplink is idle from slot t on: a transfer it sends from t takes its idle-link time. */
  upIdleFrom(k: number, t: number): boolean {
    return this.upUntil[k] <= t;
  }

  /**
   * When `seconds` of transfer, asked at the start of slot `from`, have passed node k's uplink (`up`) or
   * downlink: in seconds from the start of the horizon, taking each slot's free seconds in turn. Infinity
   * when the horizon ends first.
   */
  endOf(k: number, link: 'up' | 'down', from: number, seconds: number): number {
    const S = this.slotSeconds;
    if (!(seconds > 0)) return from * S;
    const used = (link === 'up' ? this.up : this.down)[k];
    if (!used) return from * S + seconds;
    const next = (link === 'up' ? this.upNext : this.downNext)[k]!;
    let left = seconds;
    for (let t = this.open(next, from); t < this.slots; t = this.open(next, t + 1)) {
      const free = S - used[t];
      if (free >= left - 1e-12) return t * S + used[t] + left;
      if (free > 0) left -= free;
    }
    return Infinity;
  }

  /**
   * The first slot >= t whose link is not full: `next` links each full slot to the one after it (a
   * union-find over slots with path halving), so a long busy stretch is crossed in a few steps.
   */
  private open(next: Int32Array, t: number): number {
    while (t < this.slots && next[t] !== t) {
      next[t] = next[next[t]];
      t = next[t];
    }
    return t;
  }

  /**
   * Puts `seconds` of transfer on node k's link from slot `from`, the way endOf() counts it, and appends to
   * `log` (node, link, slot, seconds) per slot touched so that remove() can take exactly that back.
   */
  add(k: number, link: 'up' | 'down', from: number, seconds: number, log: number[]): void {
    if (!(seconds > 0)) return;
    const S = this.slotSeconds;
    const arrays = link === 'up' ? this.up : this.down;
    const nexts = link === 'up' ? this.upNext : this.downNext;
    const used = (arrays[k] ??= new Float64Array(this.slots));
    const next = (nexts[k] ??= identity(this.slots + 1));
    let left = seconds;
    for (let t = this.open(next, from); t < this.slots && left > 1e-12; t = this.open(next, t + 1)) {
      const take = Math.min(left, S - used[t]);
      if (take <= 0) continue;
      used[t] += take;
      left -= take;
      if (used[t] >= S - 1e-12) next[t] = t + 1;
      if (link === 'up' && t >= this.upUntil[k]) this.upUntil[k] = t + 1;
      log.push(k, link === 'up' ? 1 : 0, t, take);
    }
  }

  /** Takes back what add() logged in `log` (as written by add, four numbers per slot touched). */
  remove(log: ArrayLike<number>): void {
    for (let n = 0; n + 3 < log.length; n += 4) {
      const up = log[n + 1] === 1;
      const used = (up ? this.up : this.down)[log[n]]!;
      used[log[n + 2]] = Math.max(0, used[log[n + 2]] - log[n + 3]);
      // A slot no longer full: the skip links over it (and past it, by halving) are rebuilt from the load.
      const next = (up ? this.upNext : this.downNext)[log[n]]!;
      if (next[log[n + 2]] !== log[n + 2]) this.relink(used, next);
    }
  }

  private relink(used: Float64Array, next: Int32Array): void {
    const S = this.slotSeconds;
    for (let t = 0; t < this.slots; t++) next[t] = used[t] >= S - 1e-12 ? t + 1 : t;
    next[this.slots] = this.slots;
  }

  clear(): void {
    for (const a of this.up) a?.fill(0);
    for (const a of this.down) a?.fill(0);
    for (const a of this.upNext) if (a) for (let t = 0; t < a.length; t++) a[t] = t;
    for (const a of this.downNext) if (a) for (let t = 0; t < a.length; t++) a[t] = t;
    this.upUntil.fill(0);
  }
}

function identity(n: number): Int32Array {
  const a = new Int32Array(n);
  for (let t = 0; t < n; t++) a[t] = t;
  return a;
}
