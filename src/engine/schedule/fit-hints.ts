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
  /** Per stage x node: the hint for the stage's compute alone on that node (the commonest length, kept in an array). */
  private readonly shortest: Int32Array;
  /** The hints for other lengths, by (stage x node) x (slots + 1) + length. */
  private readonly longer = new Map<number, number>();

  constructor(
    stages: number,
    private readonly nodes: number,
    private readonly slots: number,
  ) {
    this.shortest = new Int32Array(stages * nodes);
  }

  /** The earliest start worth scanning from for a task of stage g on node k lasting `length` slots (shortest: `minLength`). */
  from(g: number, k: number, length: number, minLength: number): number {
    const at = g * this.nodes + k;
    if (length === minLength) return this.shortest[at];
    return this.longer.get(at * (this.slots + 1) + length) ?? this.shortest[at];
  }

  /** No task of stage g lasting `length` slots (shortest: `minLength`) fits on node k before `start`. */
  set(g: number, k: number, length: number, minLength: number, start: number): void {
    const at = g * this.nodes + k;
    if (length === minLength) this.shortest[at] = start;
    else this.longer.set(at * (this.slots + 1) + length, start);
  }

  clear(): void {
    this.shortest.fill(0);
    this.longer.clear();
  }
}
