import { WorkKind } from '../work/work-kind';
import { SimulationEntity } from './simulation.entity';

export const SIMULATION_WORK: WorkKind<SimulationEntity> = { noun: 'simulation', queue: 'simulations', jobName: 'simulate', entity: SimulationEntity, heavyColumns: ['actualUsage', 'instance'], stopKeepsBest: false };
