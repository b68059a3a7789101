import { Module } from '@nestjs/common';
import { ClustersModule } from '../clusters/clusters.module';
import { ForecastsModule } from '../forecasts/forecasts.module';
import { OffersController } from './offers.controller';

/** The customers' view of what is for sale: lendable clusters and their current forecasts (read-only). */
@Module({
  imports: [ClustersModule, ForecastsModule],
  controllers: [OffersController],
})
export class OffersModule {}
