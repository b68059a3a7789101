import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { HealthRepository } from './health.repository';
import { HealthService } from './health.service';
import { MetricsService } from './metrics.service';

/**
 * /health and the Prometheus metrics (MetricsService, exported: the HTTP bootstrap mounts its middleware).
 * No entity; REDIS and SOLVE_QUEUE come from the global QueueModule.
 */
@Module({
  controllers: [HealthController],
  providers: [HealthRepository, HealthService, MetricsService],
  exports: [MetricsService],
})
export class HealthModule {}
