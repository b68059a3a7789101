import { FORECAST_BUILD_WORK } from './forecast-builds/forecast-build.kind';
import { SIMULATION_WORK } from './simulations/simulation.kind';
import { SOLVE_WORK } from './solves/solve.kind';
import { WorkKind } from './work/work-kind';

/** Every kind of long work: each gets a queue (API and worker), a worker loop and a place on the queue board. */
export const WORK_KINDS: WorkKind<any>[] = [SOLVE_WORK, FORECAST_BUILD_WORK, SIMULATION_WORK];
