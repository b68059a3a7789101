import { WorkKind } from '../work/work-kind';
import { SolveEntity } from './solve.entity';

export const SOLVE_WORK: WorkKind<SolveEntity> = { noun: 'solve', queue: 'solves', jobName: 'solve', entity: SolveEntity, heavyColumns: ['instance'], stopKeepsBest: true };
