import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClustersModule } from '../clusters/clusters.module';
import { IdempotencyModule } from '../common/idempotency.module';
import { ForecastEntity } from './forecast.entity';
import { ForecastsController } from './forecasts.controller';
import { ForecastsRepository } from './forecasts.repository';
import { ForecastsService } from './forecasts.service';

/** Posted and built utilisation forecasts; solves, simulations and forecast builds use ForecastsService. */
@Module({
  imports: [TypeOrmModule.forFeature([ForecastEntity]), ClustersModule, IdempotencyModule],
  controllers: [ForecastsController],
  providers: [ForecastsRepository, ForecastsService],
  exports: [ForecastsService],
})
export class ForecastsModule {}
