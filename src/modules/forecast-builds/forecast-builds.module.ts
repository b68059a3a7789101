import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClustersModule } from '../clusters/clusters.module';
import { IdempotencyModule } from '../common/idempotency.module';
import { UsageModule } from '../usage/usage.module';
import { WorkModule } from '../work/work.module';
import { ForecastBuildEntity } from './forecast-build.entity';
import { ForecastBuildsController } from './forecast-builds.controller';
import { ForecastBuildsRepository } from './forecast-builds.repository';
import { ForecastBuildsService } from './forecast-builds.service';

@Module({
  imports: [TypeOrmModule.forFeature([ForecastBuildEntity]), WorkModule, IdempotencyModule, ClustersModule, UsageModule],
  controllers: [ForecastBuildsController],
  providers: [ForecastBuildsRepository, ForecastBuildsService],
  exports: [ForecastBuildsService],
})
export class ForecastBuildsModule {}
