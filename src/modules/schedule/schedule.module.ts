import { Module } from '@nestjs/common';
import { ChartRenderModule } from '../charts/chart-render.module';
import { ClustersModule } from '../clusters/clusters.module';
import { CommitmentsModule } from '../commitments/commitments.module';
import { ForecastsModule } from '../forecasts/forecasts.module';
import { ScheduleController } from './schedule.controller';
import { ScheduleService } from './schedule.service';

/** A cluster's schedule and its chart. Owns no table: it reads the cluster, its forecast and the commitments through their services. */
@Module({
  imports: [ClustersModule, ForecastsModule, CommitmentsModule, ChartRenderModule],
  controllers: [ScheduleController],
  providers: [ScheduleService],
})
export class ScheduleModule {}
