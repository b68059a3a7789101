/**
 * Thread entry of the CLI's long commands (solve, simulate, forecast): the computation runs here, through the
 * same entry per kind of work as the worker's threads (src/work/), so that the command's main thread can draw
 * its progress every quarter second (and stop a solve on Ctrl-C, keeping its best plan). The inputs were
 * checked on the main thread; an engine ValidationError or ForecastInputError still comes back as `input`.
 */
import { ForecastInputError, UsageForecast } from '../engine/forecast';
import { ValidationError } from '../engine/model/errors';
import type { SimReport } from '../engine/simulation';
import type { SolveOutcome } from '../engine/solve';
import type { Progress } from '../engine/contracts/strategy';
import { serveThread } from '../engine/threads/thread-entry';
import { ForecastInput, forecastUsage } from '../work/forecast';
import { runSimulation, SimulationRun } from '../work/simulate';
import { runSolve, SolveInput } from '../work/solve';

export type CliWork = { kind: 'solve'; input: SolveInput } | { kind: 'simulate'; run: SimulationRun } | { kind: 'forecast'; input: ForecastInput };

serveThread<CliWork, Progress, SolveOutcome | SimReport | UsageForecast>(
  (w, tools) => (w.kind === 'solve' ? runSolve(w.input, tools) : w.kind === 'simulate' ? runSimulation(w.run) : forecastUsage(w.input)),
  {
    isInputError: (e) => e instanceof ValidationError || e instanceof ForecastInputError,
    describe: (e) => (e instanceof ValidationError ? `${e.what} is not valid: ${e.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}` : String((e as Error)?.message ?? e)),
  },
);
