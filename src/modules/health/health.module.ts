import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller';
import { HealthService } from './health.service';
import { MetricsService } from './metrics.service';
import { RedisHealthIndicator } from './redis.health';

/**
 * /health (Terminus's indicators, Fallow's own answer: HealthDto or a 503 problem) and the Prometheus
 * metrics (MetricsService, exported: the HTTP bootstrap mounts its middleware).
 */
@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController],
  providers: [HealthService, RedisHealthIndicator, MetricsService],
  exports: [MetricsService],
})
export class HealthModule {}
