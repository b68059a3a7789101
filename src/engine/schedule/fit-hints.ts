/**
 * What a builder with priced transfers remembers of its scans (sgs.ts's Builder, lists/decoder.ts): per stage,
 * node and length in slots, a start before which no task of that stage and length fits on that node. Lengths
 * differ between a stage's tasks once fetches are priced (a map whose block is on the node fetches nothing,
 * one whose block is elsewhere fetches), so the compute-only builders' one memory per stage and node would be
 * wrong; one per length stays right while usage only grows (placing adds load), and a start remembered for
 * the stage's shortest length (its compute alone) bounds every longer one. Taking load back (a job that did
 * not fit) must clear() it.
 */
export class FitHints {
  private readonly hints = new Map<number, number>();

  constructor(
    private readonly nodes: number,
    private readonly slots: number,
  ) {}

  /** The earliest start worth scanning from for a task of stage g on node k lasting `length` slots (shortest: `minLength`). */
  from(g: number, k: number, length: number, minLength: number): number {
    const base = (g * this.nodes + k) * (this.slots + 1);
    return this.hints.get(base + length) ?? this.hints.get(base + minLength) ?? 0;
  }

  /** No task of stage g lasting `length` slots fits on node k before `start`. */
  set(g: number, k: number, length: number, start: number): void {
    this.hints.set((g * this.nodes + k) * (this.slots + 1) + length, start);
  }

  clear(): void {
    this.hints.clear();
  }
}
