import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { QueueEvents } from 'bullmq';
import type { NextFunction, Request, Response } from 'express';
import type { Redis } from 'ioredis';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { Config, CONFIG } from '../../config';
import { withTimeout } from '../common/with-timeout';
import { redisConnection, WorkQueues } from '../queue/queue.module';
import { SOLVE_WORK } from '../solves/solve.kind';

/**
 * Prometheus metrics of the API process. Solve durations come from the queue's completion events, so the
 * API reports them although the solves run in the workers.
 */
@Injectable()
export class MetricsService implements OnModuleDestroy {
  readonly registry = new Registry();
  private readonly http = new Histogram({ name: 'fallow_http_request_duration_seconds', help: 'HTTP request duration', labelNames: ['method', 'route', 'status'], buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5], registers: [this.registry] });
  private readonly solves = new Histogram({ name: 'fallow_solve_duration_seconds', help: 'Wall time of a solve on a worker', labelNames: ['strategy', 'status'], buckets: [0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600], registers: [this.registry] });
  private readonly failures = new Counter({ name: 'fallow_solve_jobs_failed_total', help: 'Solve jobs the queue gave up on', registers: [this.registry] });
  private events?: QueueEvents;
  private eventsConnection?: Redis;

  constructor(
    queues: WorkQueues,
    @Inject(CONFIG) private readonly config: Config,
  ) {
    collectDefaultMetrics({ register: this.registry, prefix: 'fallow_' });
    new Gauge({
      name: 'fallow_queue_jobs',
      help: 'Solve jobs in the queue by state',
      labelNames: ['state'],
      registers: [this.registry],
      async collect() {
        // Redis away: /metrics still answers at once (the gauge keeps its last values) instead of waiting.
        const counts = await withTimeout(queues.of(SOLVE_WORK).getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed'), 1000).catch(() => null);
        for (const [state, n] of Object.entries(counts ?? {})) this.set({ state }, n);
      },
    });
  }

  /** Starts listening to completions (not in the constructor: OpenAPI generation builds the app without Redis). */
  listen(): void {
    // BullMQ never closes a connection it was given, so this service keeps it and closes it itself.
    this.eventsConnection = redisConnection(this.config.redisUrl);
    this.events = new QueueEvents(SOLVE_WORK.queue, { connection: this.eventsConnection, prefix: this.config.queuePrefix });
    this.events.on('completed', ({ returnvalue }) => {
      const r = (typeof returnvalue === 'string' ? safeParse(returnvalue) : returnvalue) as { status?: string; elapsedMs?: number; strategy?: string } | null;
      if (r?.elapsedMs && r.status !== 'skipped') this.solves.observe({ strategy: r.strategy ?? 'unknown', status: r.status ?? 'unknown' }, r.elapsedMs / 1000);
    });
    this.events.on('failed', () => this.failures.inc());
  }

  middleware() {
    return (req: Request, res: Response, next: NextFunction) => {
      const end = this.http.startTimer({ method: req.method });
      res.on('finish', () => end({ route: req.route ? `${req.baseUrl}${req.route.path}` : 'unmatched', status: String(res.statusCode) }));
      next();
    };
  }

  async onModuleDestroy(): Promise<void> {
    await this.events?.close();
    this.eventsConnection?.disconnect();
  }
}

function safeParse(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return null;
  }
}
