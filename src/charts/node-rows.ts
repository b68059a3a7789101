/**
 * Rows of a per-node chart: one per node while each row gets at least MIN_ROW_PX pixels, else consecutive nodes
 * share a row (labelled "first-last"), so that a 5,000-node cluster is still drawn in a readable height.
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
