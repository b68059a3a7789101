/** The MILP in HiGHS's terms (columns, CSR rows), as the builder hands it to the solver thread. */
export interface MilpProblem {
  numCols: number;
  numRows: number;
  colCost: Float64Array;
  colLower: Float64Array;
  colUpper: Float64Array;
  integrality: Int32Array;
  rowLower: Float64Array;
  rowUpper: Float64Array;
  /** CSR matrix. */
  starts: Int32Array;
  indices: Int32Array;
  values: Float64Array;
}

/** Thrown by RowWriter when the matrix outgrows its limit; the builder turns it into "too large". */
export class TooBig extends Error {}

/** Accumulates one row at a time (merging repeated columns) into CSR arrays, with a size limit. */
export class RowWriter {
  private readonly scratch: Float64Array;
  private readonly touched: number[] = [];
  private readonly idx: number[] = [];
  private readonly val: number[] = [];
  private readonly lower: number[] = [];
  private readonly upper: number[] = [];
  private readonly rowStart: number[] = [0];

  constructor(
    numCols: number,
    private readonly maxNonzeros: number,
  ) {
    this.scratch = new Float64Array(numCols);
  }

  get count(): number {
    return this.lower.length;
  }

  get nonzeros(): number {
    return this.idx.length;
  }

  add(col: number, coef: number): void {
    if (col < 0 || coef === 0) return;
    if (this.scratch[col] === 0) this.touched.push(col);
    this.scratch[col] += coef;
    // A coefficient that cancels to exactly 0 stays in `touched`; commit() skips it.
    if (this.scratch[col] === 0) this.scratch[col] = Number.MIN_VALUE;
  }

  empty(): boolean {
    return this.touched.length === 0;
  }

  commit(lower: number, upper: number): void {
    for (const c of this.touched) {
      const v = this.scratch[c];
      this.scratch[c] = 0;
      if (Math.abs(v) < 1e-12) continue;
      this.idx.push(c);
      this.val.push(v);
    }
    this.touched.length = 0;
    if (this.idx.length > this.maxNonzeros) throw new TooBig();
    this.lower.push(lower);
    this.upper.push(upper);
    this.rowStart.push(this.idx.length);
  }

  finish(): Pick<MilpProblem, 'numRows' | 'rowLower' | 'rowUpper' | 'starts' | 'indices' | 'values'> {
    return {
      numRows: this.lower.length,
      rowLower: Float64Array.from(this.lower),
      rowUpper: Float64Array.from(this.upper),
      starts: Int32Array.from(this.rowStart),
      indices: Int32Array.from(this.idx),
      values: Float64Array.from(this.val),
    };
  }
}
