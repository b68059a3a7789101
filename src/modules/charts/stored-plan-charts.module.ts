import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ChartRenderModule } from './chart-render.module';
import { PlanChartEntity } from './plan-chart.entity';
import { PlanChartsRepository } from './plan-charts.repository';
import { StoredPlanCharts } from './stored-plan-charts';

/** Plans' pre-rendered charts (plan_charts): the worker writes them with a plan, the API's ChartsService reads them. */
@Module({
  imports: [TypeOrmModule.forFeature([PlanChartEntity]), ChartRenderModule],
  providers: [PlanChartsRepository, StoredPlanCharts],
  exports: [StoredPlanCharts],
})
export class StoredPlanChartsModule {}
