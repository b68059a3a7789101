import { DynamicModule, Module } from '@nestjs/common';
import { Config } from '../config';
import { ConfigModule } from '../modules/config.module';
import { DatabaseModule } from '../modules/database/database.module';
import { PlansRepository } from '../modules/plans/plans.repository';
import { UsageRepository } from '../modules/usage/usage.repository';
import { ForecastBuildProcessor } from './forecast-build.processor';
import { SimulationProcessor } from './simulation.processor';
import { SolveProcessor } from './solve.processor';

@Module({})
export class WorkerModule {
  static forRoot(config: Config): DynamicModule {
    return { module: WorkerModule, imports: [ConfigModule.forRoot(config), DatabaseModule], providers: [PlansRepository, SolveProcessor, UsageRepository, ForecastBuildProcessor, SimulationProcessor] };
  }
}
