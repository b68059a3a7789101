import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClusterSignalsModule } from '../cluster-signals/cluster-signals.module';
import { ClustersModule } from '../clusters/clusters.module';
import { CommitmentsModule } from '../commitments/commitments.module';
import { ForecastsModule } from '../forecasts/forecasts.module';
import { SolvesModule } from '../solves/solves.module';
import { UsageModule } from '../usage/usage.module';
import { AutoReplanner } from './auto-replanner';
import { ReplanningController } from './replanning.controller';
import { AutoReplanEntity, AutoReplanGateEntity, ReplanningSettingsEntity } from './replanning.entity';
import { ReplanningRepository } from './replanning.repository';
import { ReplanningService } from './replanning.service';

/**
 * Automatic re-planning (issue 39): the settings per cluster, the requests, and the listener of the cluster
 * signals that requests re-plans. Only the API process has it: the signals come from its requests.
 */
@Module({
  imports: [TypeOrmModule.forFeature([ReplanningSettingsEntity, AutoReplanEntity, AutoReplanGateEntity]), ClusterSignalsModule, ClustersModule, CommitmentsModule, ForecastsModule, SolvesModule, UsageModule],
  controllers: [ReplanningController],
  providers: [ReplanningRepository, ReplanningService, AutoReplanner],
})
export class ReplanningModule {}
