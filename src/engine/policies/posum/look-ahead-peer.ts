import type { PosumScore } from '../../evaluate/posum-score';
import { sharedByCopies } from '../../simulate/fork';

/** Int32 header: each side's "gone" flag, then each ring slot's generation per side (the swap it holds, plus one). */
const GONE = 0;
const GENERATION = 2;
const HEADER_BYTES = 32;
/**
 * Two slots, by the swap's number (not the decision's: decisions replayed from time 0 swap nothing, so their numbers
 * skip): a side publishing swap n + 1 has read the other's half of swap n, so slot n % 2 is free again.
 */
const RING = 2;
/** The longest a side sleeps before looking again whether the other has left. */
const WAKE_MS = 20;
/** Numbers per member's score (vd, sb, c). */
const PER_MEMBER = 3;
/** A half starts with the number of the decision it is for (the two runs' decisions must agree). */
const DECISION = 1;

/**
 * One side of two threads that run the same POSUM run (the same instance, load, options and seed, so their live
 * runs and every decision agree) and share each decision's look-ahead: each side simulates the allocation groups
 * simulates() gives it and they swap the scores through shared memory (Atomics). Each decision then costs about
 * half its time on two cores, and decides exactly as one thread would: a member's score is the same whichever
 * thread simulates it. A side that hears nothing from the other within `patienceMs`, or finds it gone (leave()),
 * simulates every group from then on.
 */
export class LookAheadPeer {
  private readonly flags: Int32Array;
  private readonly scores: Float64Array;
  private alone = false;
  /** Decisions whose other half came from the other side. */
  shared = 0;
  private swaps = 0;

  constructor(
    readonly side: 0 | 1,
    readonly buffer: SharedArrayBuffer,
    private readonly members: number,
    private readonly patienceMs = 60_000,
  ) {
    if (buffer.byteLength !== LookAheadPeer.bytes(members)) throw new Error(`a look-ahead peer for ${members} members needs ${LookAheadPeer.bytes(members)} bytes, got ${buffer.byteLength}`);
    this.flags = new Int32Array(buffer, 0, GENERATION + RING * 2);
    this.scores = new Float64Array(buffer, HEADER_BYTES, RING * 2 * (DECISION + members * PER_MEMBER));
    // Copies of the run (POSUM's look-ahead forks it thousands of times) share this side; they never swap.
    sharedByCopies(this);
  }

  static bytes(members: number): number {
    return HEADER_BYTES + RING * 2 * (DECISION + members * PER_MEMBER) * Float64Array.BYTES_PER_ELEMENT;
  }

  /** Whether this side simulates allocation group `n` (of a decision's groups, in order): half of them, all once alone. */
  simulates(n: number): boolean {
    return this.alone || n % 2 === this.side;
  }

  /** Whether the other side has been given up (this side simulates every group). */
  get isAlone(): boolean {
    return this.alone;
  }

  /**
   * Publishes this side's scores of decision `decision` (per member, in the members' order; undefined for those it
   * did not simulate) and returns the other side's, or null once the other side is gone or silent past the patience,
   * or its half is for another decision (the runs parted: never seen): the caller simulates the groups left, and
   * every group from then on.
   */
  swap(decision: number, mine: readonly (PosumScore | undefined)[]): (PosumScore | undefined)[] | null {
    if (this.alone) return null;
    if (mine.length !== this.members) throw new Error(`a look-ahead peer swaps ${this.members} members' scores, got ${mine.length}`);
    const n = this.swaps++;
    const slot = n % RING;
    const width = DECISION + this.members * PER_MEMBER;
    const other = 1 - this.side;
    const at = (slot * 2 + this.side) * width;
    this.scores[at] = decision;
    mine.forEach((score, m) => this.scores.set(score ? [score.vd, score.sb, score.c] : [NaN, NaN, NaN], at + DECISION + m * PER_MEMBER));
    const own = GENERATION + slot * 2 + this.side;
    Atomics.store(this.flags, own, n + 1);
    Atomics.notify(this.flags, own);
    const theirs = GENERATION + slot * 2 + other;
    const waitUntil = Date.now() + this.patienceMs;
    for (;;) {
      const seen = Atomics.load(this.flags, theirs);
      if (seen === n + 1) break;
      if (Atomics.load(this.flags, GONE + other) === 1 || Date.now() >= waitUntil) {
        this.alone = true;
        return null;
      }
      // In short waits: a side that leaves between the two loads above and this wait wakes nobody.
      Atomics.wait(this.flags, theirs, seen, Math.min(WAKE_MS, Math.max(1, waitUntil - Date.now())));
    }
    const from = (slot * 2 + other) * width;
    if (this.scores[from] !== decision) {
      this.alone = true;
      return null;
    }
    this.shared++;
    return Array.from({ length: this.members }, (_, m) => {
      const [vd, sb, c] = this.scores.subarray(from + DECISION + m * PER_MEMBER, from + DECISION + (m + 1) * PER_MEMBER);
      return Number.isNaN(vd) ? undefined : { vd, sb, c };
    });
  }

  /** This side takes no further part (its run is over, or failed): the other goes on alone at once. */
  leave(): void {
    Atomics.store(this.flags, GONE + this.side, 1);
    // The halves published stay: the other side may not have read the last one yet.
    for (let slot = 0; slot < RING; slot++) Atomics.notify(this.flags, GENERATION + slot * 2 + this.side);
  }
}
