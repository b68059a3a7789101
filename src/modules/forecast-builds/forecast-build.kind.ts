import { WorkKind } from '../work/work-kind';
import { ForecastBuildEntity } from './forecast-build.entity';

export const FORECAST_BUILD_WORK: WorkKind<ForecastBuildEntity> = { noun: 'forecast build', queue: 'forecast-builds', jobName: 'build', entity: ForecastBuildEntity, stopKeepsBest: false };
