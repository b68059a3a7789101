import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClustersModule } from '../clusters/clusters.module';
import { ClusterSignalsModule } from '../cluster-signals/cluster-signals.module';
import { UsageController } from './usage.controller';
import { UsageSampleEntity, UsageSeriesEntity } from './usage.entity';
import { UsageRepository } from './usage.repository';
import { UsageService } from './usage.service';

/** A farmer's usage history; forecast builds read it through UsageService.history. */
@Module({
  imports: [TypeOrmModule.forFeature([UsageSeriesEntity, UsageSampleEntity]), ClustersModule, ClusterSignalsModule],
  controllers: [UsageController],
  providers: [UsageRepository, UsageService],
  exports: [UsageService],
})
export class UsageModule {}
