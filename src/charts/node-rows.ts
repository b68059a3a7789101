/**
 * Rows of a per-node chart: one per node while each row gets at least MIN_ROW_PX pixels, else consecutive nodes
 * share a row (labelled "first-last"), so that a 5,000-node cluster is still drawn in a readable height; and the
 * grid of an aggregated chart (rows x time buckets) held to a number of cells, so that a plan of 100,000 tasks on
 * 1,000 nodes is drawn in well under a second and its rows are thick enough to read.
 */

/** Tallest a per-node chart grows, in pixels. */
export const MAX_CHART_HEIGHT = 900;
/** Thinnest row worth drawing: below it rows merge. */
export const MIN_ROW_PX = 3;

export interface NodeRows {
  /** Row of each node (by its instance index). */
  rowOf: Int32Array;
  /** Label of each row, in instance order. */
  labels: string[];
  /** Nodes per row (the last row may hold fewer). */
  perRow: number;
}

export function nodeRows(nodeIds: readonly string[], maxRows = Math.floor(MAX_CHART_HEIGHT / MIN_ROW_PX)): NodeRows {
  const perRow = Math.max(1, Math.ceil(nodeIds.length / maxRows));
  const rowOf = new Int32Array(nodeIds.length);
  const labels: string[] = [];
  for (let k = 0; k < nodeIds.length; k += perRow) {
    const last = Math.min(nodeIds.length, k + perRow) - 1;
    labels.push(last === k ? nodeIds[k] : `${nodeIds[k]}-${nodeIds[last]}`);
    for (let i = k; i <= last; i++) rowOf[i] = labels.length - 1;
  }
  return { rowOf, labels, perRow };
}

/** Most cells (rects) an aggregated chart draws: rendering costs about 60 us a cell (bench/SERVICE-SCALE.md). */
export const MAX_CELLS = 12_000;
/** Fewest rows and time buckets a grid is cut down to before the other gives way. */
const MIN_GRID_ROWS = 50;
const MIN_GRID_BUCKETS = 40;

export interface Grid {
  rows: NodeRows;
  /** Slots per time bucket. */
  bucketSlots: number;
  /** Time buckets over the span. */
  buckets: number;
}

/**
 * Rows (nodes per row) and time buckets (slots per bucket) for `span` slots of `nodeIds`, starting from one row per
 * node (at most `maxRows`) and `maxBuckets` buckets, then coarsening whichever is further above its minimum until
 * rows x buckets <= maxCells (or both are at their minimum).
 */
export function cellGrid(nodeIds: readonly string[], span: number, maxBuckets: number, maxCells = MAX_CELLS, maxRows = Math.floor(MAX_CHART_HEIGHT / MIN_ROW_PX)): Grid {
  const K = nodeIds.length;
  let perRow = Math.max(1, Math.ceil(K / maxRows));
  let L = Math.max(1, Math.ceil(span / maxBuckets));
  const rowsOf = (p: number) => Math.ceil(K / p);
  const bucketsOf = (l: number) => Math.max(1, Math.ceil(span / l));
  while (rowsOf(perRow) * bucketsOf(L) > maxCells) {
    const r = rowsOf(perRow) / MIN_GRID_ROWS;
    const b = bucketsOf(L) / MIN_GRID_BUCKETS;
    if (r <= 1 && b <= 1) break;
    if (r >= b) perRow++;
    else L++;
  }
  return { rows: nodeRows(nodeIds, rowsOf(perRow)), bucketSlots: L, buckets: bucketsOf(L) };
}
