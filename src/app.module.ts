import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { Config } from './config';
import { AccountingModule } from './modules/accounting/accounting.module';
import { AuthGuard } from './modules/auth/auth.guard';
import { AuthModule } from './modules/auth/auth.module';
import { ChartsModule } from './modules/charts/charts.module';
import { BatchesModule } from './modules/batches/batches.module';
import { ClustersModule } from './modules/clusters/clusters.module';
import { ProblemFilter } from './modules/common/problem.filter';
import { ConfigModule } from './modules/config.module';
import { DatabaseModule } from './modules/database/database.module';
import { ExecutionsModule } from './modules/executions/executions.module';
import { ForecastBuildsModule } from './modules/forecast-builds/forecast-builds.module';
import { ForecastsModule } from './modules/forecasts/forecasts.module';
import { OffersModule } from './modules/offers/offers.module';
import { HealthModule } from './modules/health/health.module';
import { PlansModule } from './modules/plans/plans.module';
import { QuotesModule } from './modules/quotes/quotes.module';
import { QuotasModule } from './modules/quotas/quotas.module';
import { QueueModule } from './modules/queue/queue.module';
import { ReplansModule } from './modules/replans/replans.module';
import { SimulationsModule } from './modules/simulations/simulations.module';
import { SolvesModule } from './modules/solves/solves.module';
import { UsageModule } from './modules/usage/usage.module';
import { ScheduleModule } from './modules/schedule/schedule.module';
import { ClusterEventsModule } from './modules/cluster-events/cluster-events.module';
import { ReplanningModule } from './modules/replanning/replanning.module';
import { WebhooksModule } from './modules/webhooks/webhooks.module';

/** The API process: HTTP only. It queues long work (solves, builds, simulations) and never runs it. */
@Module({})
export class AppModule {
  static forRoot(config: Config): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule,
        QueueModule,
        HealthModule,
        AuthModule,
        ClustersModule,
        QuotasModule,
        QuotesModule,
        UsageModule,
        ForecastsModule,
        OffersModule,
        ForecastBuildsModule,
        BatchesModule,
        ExecutionsModule,
        AccountingModule,
        SimulationsModule,
        SolvesModule,
        PlansModule,
        ReplansModule,
        ChartsModule,
        ScheduleModule,
        ClusterEventsModule,
        ReplanningModule,
        WebhooksModule,
      ],
      providers: [
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_FILTER, useClass: ProblemFilter },
      ],
    };
  }
}
