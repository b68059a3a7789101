import { Module } from '@nestjs/common';
import { PlansModule } from '../plans/plans.module';
import { SimulationsModule } from '../simulations/simulations.module';
import { SolvesModule } from '../solves/solves.module';
import { ChartRenderModule } from './chart-render.module';
import { ChartThreadsWarmUp } from './chart-renderer';
import { ChartsController } from './charts.controller';
import { ChartsService } from './charts.service';
import { StoredPlanChartsModule } from './stored-plan-charts.module';

/** Charts of plans and simulations and the plan page. Reads plans through the plans, solves and simulations services, and their stored charts through StoredPlanChartsModule. */
@Module({
  imports: [PlansModule, SolvesModule, SimulationsModule, ChartRenderModule, StoredPlanChartsModule],
  controllers: [ChartsController],
  providers: [ChartsService, ChartThreadsWarmUp],
})
export class ChartsModule {}
