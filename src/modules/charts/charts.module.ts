import { Module } from '@nestjs/common';
import { PlansModule } from '../plans/plans.module';
import { SimulationsModule } from '../simulations/simulations.module';
import { SolvesModule } from '../solves/solves.module';
import { ChartRenderModule } from './chart-render.module';
import { ChartsController } from './charts.controller';
import { ChartsService } from './charts.service';

/** Charts of plans and simulations and the plan page. Owns no table: it reads through the plans, solves and simulations services. */
@Module({
  imports: [PlansModule, SolvesModule, SimulationsModule, ChartRenderModule],
  controllers: [ChartsController],
  providers: [ChartsService],
})
export class ChartsModule {}
