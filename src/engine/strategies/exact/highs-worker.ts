import loadHighs from 'highs';
import { raiseStop, stopRaised } from '../../budget/stop-flag';
import { serveThread, ThreadTools } from '../../threads/thread-entry';
import { HighsOutcome, OPTIMAL, STATUS_NAMES, WorkerEvent, WorkerInput } from './protocol';

/**
 * Solver thread: HiGHS (WebAssembly) blocks its thread for the whole solve, so it runs here and the
 * strategy's event loop stays free. The WASM instance lives and dies with this thread: the parent
 * terminates the worker after every solve, which returns all of its memory.
 */
async function main(input: WorkerInput, { emit: post, stop }: ThreadTools<WorkerEvent>): Promise<HighsOutcome> {
  const highs = await loadHighs();
  const p = input.problem;
  const model = highs.createModel({
    numCols: p.numCols,
    numRows: p.numRows,
    sense: highs.constants.objectiveSense.minimize,
    colCost: p.colCost,
    colLower: p.colLower,
    colUpper: p.colUpper,
    rowLower: p.rowLower,
    rowUpper: p.rowUpper,
    matrix: { format: 'csr', numRows: p.numRows, numCols: p.numCols, starts: p.starts, indices: p.indices, values: p.values },
    integrality: p.integrality,
  });
  try {
    model.options.set({ output_flag: false, ...input.options });
    if (input.start) model.setSolution({ colValue: input.start });
    const finite = (v: number | undefined) => (v !== undefined && Number.isFinite(v) ? v : null);
    let lastBound = -Infinity;
    const checkStop = (event: { interrupt(): void; data: { mip_dual_bound?: number; mip_node_count?: bigint } }): undefined => {
      const b = event.data.mip_dual_bound;
      if (b !== undefined && Number.isFinite(b) && b > lastBound) {
        lastBound = b;
        post({ type: 'bound', dualBound: b, nodes: Number(event.data.mip_node_count ?? 0) });
      }
      if (stopRaised(stop)) event.interrupt();
      return undefined;
    };
    model.run({
      [highs.constants.callbackType.mipImprovingSolution](event) {
        const x = event.data.mip_solution;
        if (x) post({ type: 'incumbent', colValue: x, objective: event.data.objective_function_value ?? NaN, dualBound: finite(event.data.mip_dual_bound) });
      },
      [highs.constants.callbackType.mipInterrupt]: checkStop,
      [highs.constants.callbackType.simplexInterrupt]: checkStop,
    });
    const modelStatus = model.getModelStatus();
    // Before the result is even read back: a strategy racing this one on the parent thread may be in a
    // synchronous loop that only shared memory reaches.
    if (modelStatus === OPTIMAL && input.stopWhenOptimal) raiseStop(new Int32Array(input.stopWhenOptimal));
    const info = (name: string): number | null => {
      try {
        const v = Number(model.info.get(name));
        return Number.isFinite(v) ? v : null;
      } catch {
        return null;
      }
    };
    // primal_solution_status 2 = feasible: only then is the column vector a solution.
    const hasPrimal = info('primal_solution_status') === 2;
    const colValue = hasPrimal ? model.getSolution().colValue : null;
    const result: HighsOutcome = {
      modelStatus,
      status: STATUS_NAMES[modelStatus] ?? `status-${modelStatus}`,
      colValue,
      objective: hasPrimal ? model.getObjectiveValue() : null,
      dualBound: info('mip_dual_bound'),
      gap: info('mip_gap'),
      nodes: info('mip_node_count') ?? 0,
      solverSeconds: model.getRunTime(),
    };
    return result;
  } finally {
    model.dispose();
  }
}

// The answer's column vector is moved, not copied; an error's message is its whole stack (the runner keeps the first line).
serveThread<WorkerInput, WorkerEvent, HighsOutcome>(main, {
  transferOf: (r) => (r.colValue ? [r.colValue.buffer as ArrayBuffer] : []),
  describe: (e) => (e instanceof Error ? (e.stack ?? e.message) : String(e)),
});
