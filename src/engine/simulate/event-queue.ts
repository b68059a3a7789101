/**
 * The simulator's future event list: a binary min-heap ordered by (time, priority, insertion order).
 * Events live in parallel typed arrays (no object per event) so that 100,000 task events cost a few
 * milliseconds of heap work; insertion order breaks the last ties, which makes every run with the same
 * inputs and seed pop events in exactly the same order.
 */
export interface SimEvent {
  time: number;
  kind: number;
  a: number;
  b: number;
}

import { CLONE } from './fork';

/** Orders sequence numbers below priorities inside one float (exact up to 2^53). */
const PRIORITY_SHIFT = 2 ** 40;

export class EventQueue {
  private time: Float64Array;
  private order: Float64Array;
  private kind: Uint8Array;
  private a: Int32Array;
  private b: Int32Array;
  private seq = 0;
  size = 0;
  /** Events ever pushed: the benchmark's events/second numerator. */
  pushed = 0;

  constructor(capacity = 1024) {
    this.time = new Float64Array(capacity);
    this.order = new Float64Array(capacity);
    this.kind = new Uint8Array(capacity);
    this.a = new Int32Array(capacity);
    this.b = new Int32Array(capacity);
  }

  /**
   * Its copy in a copy of the run (cloneState): the queued events only, in the same heap positions (so the copy pops
   * them alike), with room for as many more. A run's queue keeps the capacity of its busiest moment (4,096 at
   * least), most of it unused; POSUM's look-ahead copies runs thousands of times a decision day.
   */
  [CLONE](): EventQueue {
    const c = new EventQueue(Math.max(64, 2 * this.size));
    const n = this.size;
    c.time.set(this.time.subarray(0, n));
    c.order.set(this.order.subarray(0, n));
    c.kind.set(this.kind.subarray(0, n));
    c.a.set(this.a.subarray(0, n));
    c.b.set(this.b.subarray(0, n));
    c.seq = this.seq;
    c.size = n;
    c.pushed = this.pushed;
    return c;
  }

  /** `priority` (0..255) orders events of the same instant: lower first. */
  push(time: number, priority: number, kind: number, a = 0, b = 0): void {
    if (this.size === this.time.length) this.grow();
    const order = priority * PRIORITY_SHIFT + this.seq++;
    this.pushed++;
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.before(time, order, p)) break;
      this.move(p, i);
      i = p;
    }
    this.set(i, time, order, kind, a, b);
  }

  /** Removes the first event into `out` (reused by the caller: no allocation per event). */
  pop(out: SimEvent): boolean {
    if (this.size === 0) return false;
    out.time = this.time[0];
    out.kind = this.kind[0];
    out.a = this.a[0];
    out.b = this.b[0];
    const last = --this.size;
    if (last === 0) return true;
    const t = this.time[last];
    const o = this.order[last];
    const k = this.kind[last];
    const a = this.a[last];
    const b = this.b[last];
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= last) break;
      if (c + 1 < last && this.lessAt(c + 1, c)) c++;
      if (!(this.time[c] < t || (this.time[c] === t && this.order[c] < o))) break;
      this.move(c, i);
      i = c;
    }
    this.set(i, t, o, k, a, b);
    return true;
  }

  /** Keeps only the events for which `keep(kind, a, b, time)` holds (the others are dropped); the order of those kept is unchanged. */
  retain(keep: (kind: number, a: number, b: number, time: number) => boolean): void {
    let n = 0;
    for (let i = 0; i < this.size; i++) if (keep(this.kind[i], this.a[i], this.b[i], this.time[i])) this.move(i, n++);
    this.size = n;
    // (time, order) is a total order: any heap of the same events pops them alike, so rebuild one (Floyd).
    for (let i = (n >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  private siftDown(i: number): void {
    const t = this.time[i];
    const o = this.order[i];
    const k = this.kind[i];
    const a = this.a[i];
    const b = this.b[i];
    for (;;) {
      let c = 2 * i + 1;
      if (c >= this.size) break;
      if (c + 1 < this.size && this.lessAt(c + 1, c)) c++;
      if (!(this.time[c] < t || (this.time[c] === t && this.order[c] < o))) break;
      this.move(c, i);
      i = c;
    }
    this.set(i, t, o, k, a, b);
  }

  peekTime(): number {
    return this.size === 0 ? Infinity : this.time[0];
  }

  /** (time, order) comes before the event at heap position j. */
  private before(time: number, order: number, j: number): boolean {
    return time < this.time[j] || (time === this.time[j] && order < this.order[j]);
  }

  private lessAt(i: number, j: number): boolean {
    return this.time[i] < this.time[j] || (this.time[i] === this.time[j] && this.order[i] < this.order[j]);
  }

  private move(from: number, to: number): void {
    this.time[to] = this.time[from];
    this.order[to] = this.order[from];
    this.kind[to] = this.kind[from];
    this.a[to] = this.a[from];
    this.b[to] = this.b[from];
  }

  private set(i: number, time: number, order: number, kind: number, a: number, b: number): void {
    this.time[i] = time;
    this.order[i] = order;
    this.kind[i] = kind;
    this.a[i] = a;
    this.b[i] = b;
  }

  private grow(): void {
    const n = this.time.length * 2;
    const t = new Float64Array(n);
    t.set(this.time);
    this.time = t;
    const o = new Float64Array(n);
    o.set(this.order);
    this.order = o;
    const k = new Uint8Array(n);
    k.set(this.kind);
    this.kind = k;
    const a = new Int32Array(n);
    a.set(this.a);
    this.a = a;
    const b = new Int32Array(n);
    b.set(this.b);
    this.b = b;
  }
}
