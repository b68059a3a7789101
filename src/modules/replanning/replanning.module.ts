import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClusterSignalsModule } from '../cluster-signals/cluster-signals.module';
import { ClustersModule } from '../clusters/clusters.module';
import { CommitmentsModule } from '../commitments/commitments.module';
import { ForecastsModule } from '../forecasts/forecasts.module';
import { PlansModule } from '../plans/plans.module';
import { ReplansModule } from '../replans/replans.module';
import { ReplansService } from '../replans/replans.service';
import { SolvesModule } from '../solves/solves.module';
import { UsageModule } from '../usage/usage.module';
import { AutoReplanner } from './auto-replanner';
import { REPLAN_TRIGGER, ReplanTrigger } from './replan-trigger';
import { ReplanningController } from './replanning.controller';
import { AutoReplanEntity, AutoReplanGateEntity, ReplanningSettingsEntity } from './replanning.entity';
import { ReplanningRepository } from './replanning.repository';
import { ReplanningService } from './replanning.service';

/**
 * Automatic re-planning (issue 39): the settings per cluster, the requests, and the listener of the cluster
 * signals that requests re-plans and hands them to the re-planning API (ReplansService). Only the API process
 * has it: the signals come from its requests.
 */
@Module({
  imports: [TypeOrmModule.forFeature([ReplanningSettingsEntity, AutoReplanEntity, AutoReplanGateEntity]), ClusterSignalsModule, ClustersModule, CommitmentsModule, ForecastsModule, SolvesModule, UsageModule, PlansModule, ReplansModule],
  controllers: [ReplanningController],
  providers: [
    ReplanningRepository,
    ReplanningService,
    AutoReplanner,
    // A re-plan the service asks for itself: any plan, with the trigger's reason, the re-plan's defaults otherwise.
    { provide: REPLAN_TRIGGER, inject: [ReplansService], useFactory: (replans: ReplansService): ReplanTrigger => ({ replan: async (planId, reason) => (await replans.replan(planId, { system: true, reason })).id }) },
  ],
})
export class ReplanningModule {}
