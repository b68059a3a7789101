import { WorkerHost } from '@nestjs/bullmq';
import { DynamicModule, Module } from '@nestjs/common';
import { Config } from '../config';
import { ClustersModule } from '../modules/clusters/clusters.module';
import { ConfigModule } from '../modules/config.module';
import { DatabaseModule } from '../modules/database/database.module';
import { ForecastsModule } from '../modules/forecasts/forecasts.module';
import { PlansModule } from '../modules/plans/plans.module';
import { StoredPlanChartsModule } from '../modules/charts/stored-plan-charts.module';
import { SolvesModule } from '../modules/solves/solves.module';
import { UsageModule } from '../modules/usage/usage.module';
import { WORK_KINDS } from '../modules/work-kinds';
import { QueueModule } from '../modules/queue/queue.module';
import { WORK_HANDLERS } from '../modules/work/work-handler';
import { LongWorkProcessor } from '../modules/work/work.processor';
import { WorkModule } from '../modules/work/work.module';
import { ForecastBuildHandler } from './kinds/forecast-build.handler';
import { SimulationHandler } from './kinds/simulation.handler';
import { SolveHandler } from './kinds/solve.handler';
import { MaintenanceLoop } from './maintenance-loop';
import { WebhookLoop } from './webhook-loop';
import { WebhooksModule } from '../modules/webhooks/webhooks.module';
import { workLoop } from './work-loops';

/** Adding a kind of long work: its handler here, its descriptor in WORK_KINDS (which gives it a queue loop). */
const HANDLERS = [SolveHandler, ForecastBuildHandler, SimulationHandler];

/** The queue loops of this process (WorkerHost instances: `.worker` is the BullMQ worker): long work's and webhook deliveries'. */
export const WORK_LOOPS = Symbol('WORK_LOOPS');

/** The worker process's context: the kernel's processor, one handler and one queue loop per kind of long work, the reconciler's loop and webhook deliveries. No HTTP. */
@Module({})
export class WorkerModule {
  static forRoot(config: Config): DynamicModule {
    const loops = WORK_KINDS.map((k) => workLoop(k, config));
    return {
      module: WorkerModule,
      imports: [ConfigModule.forRoot(config), DatabaseModule, QueueModule, WorkModule, PlansModule, StoredPlanChartsModule, SolvesModule, ClustersModule, ForecastsModule, UsageModule, WebhooksModule],
      providers: [
        ...HANDLERS,
        { provide: WORK_HANDLERS, inject: HANDLERS, useFactory: (...handlers: unknown[]) => handlers },
        LongWorkProcessor,
        ...loops,
        MaintenanceLoop,
        WebhookLoop,
        { provide: WORK_LOOPS, inject: [...loops, WebhookLoop], useFactory: (...hosts: WorkerHost[]) => hosts },
      ],
    };
  }
}
