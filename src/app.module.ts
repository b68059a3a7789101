import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { Config } from './config';
import { AuthGuard } from './modules/auth/auth.guard';
import { AuthService } from './modules/auth/auth.service';
import { RateLimiter } from './modules/auth/rate-limiter';
import { TenantsController } from './modules/auth/tenants.controller';
import { IdempotencyInterceptor } from './modules/common/idempotency.interceptor';
import { ProblemFilter } from './modules/common/problem.filter';
import { ConfigModule } from './modules/config.module';
import { DatabaseModule } from './modules/database/database.module';
import { HealthController } from './modules/health/health.controller';
import { MetricsService } from './modules/health/metrics.service';
import { PlansController } from './modules/plans/plans.controller';
import { PlansService } from './modules/plans/plans.service';
import { QueueModule } from './modules/queue/queue.module';
import { SolvesController } from './modules/solves/solves.controller';
import { SolvesService } from './modules/solves/solves.service';
import { FEATURE_CONTROLLERS, FEATURE_PROVIDERS } from './modules/features';

/** The API process: HTTP only. It queues solves and never runs a solver. */
@Module({})
export class AppModule {
  static forRoot(config: Config): DynamicModule {
    return {
      module: AppModule,
      imports: [ConfigModule.forRoot(config), DatabaseModule, QueueModule],
      controllers: [HealthController, TenantsController, ...FEATURE_CONTROLLERS, SolvesController, PlansController],
      providers: [
        AuthService,
        RateLimiter,
        IdempotencyInterceptor,
        MetricsService,
        SolvesService,
        PlansService,
        ...FEATURE_PROVIDERS,
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_FILTER, useClass: ProblemFilter },
      ],
    };
  }
}
