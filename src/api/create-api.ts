import { getQueueToken } from '@nestjs/bullmq';
import { NestFactory } from '@nestjs/core';
import type { Queue } from 'bullmq';
import { NestExpressApplication } from '@nestjs/platform-express';
import { randomUUID } from 'node:crypto';
import express, { NextFunction, Request, RequestHandler, Response } from 'express';
import { pinoHttp } from 'pino-http';
import swaggerUi from 'swagger-ui-express';
import { AppModule } from '../app.module';
import { Config } from '../config';
import { queueBoard, QUEUE_BOARD_PATH } from '../modules/admin/queue-board';
import { AuthService } from '../modules/auth/auth.service';
import { createLogger, PinoNestLogger } from '../modules/common/logger';
import { bodyShapeGuard } from '../modules/common/body-shape';
import { requireJsonBodies } from '../modules/common/content-type';
import { ProblemException } from '../modules/common/problem';
import { sendProblem } from '../modules/common/problem.filter';
import { validationPipe } from '../modules/common/validation';
import { MetricsService } from '../modules/health/metrics.service';
import type { Redis } from 'ioredis';
import { REDIS, WorkQueues } from '../modules/queue/queue.module';
import { USAGE_ROUTE, usageBodyParsers } from '../modules/usage/usage-body';
import { WEBHOOK_QUEUE } from '../modules/webhooks/webhook-queue';
import { authenticateBodies } from '../modules/auth/authenticate-bodies';
import { RateLimiter } from '../modules/auth/rate-limiter';
import { buildOpenApiDocument } from './openapi';

/** Builds the HTTP API (not listening yet): middleware, validation, docs, metrics and the queue board. */
export async function createApi(config: Config): Promise<NestExpressApplication> {
  const log = createLogger(config.logLevel, 'fallow-api');
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), { bodyParser: false, logger: new PinoNestLogger(log) });
  app.disable('x-powered-by');
  // X-Forwarded-For only from the proxies the operator names: otherwise anyone could pick the address that
  // the failures of requests without a key are counted against (their own, to escape it; a victim's, to lock it out).
  app.set('trust proxy', config.trustedProxies.length ? config.trustedProxies : false);
  app.use(
    pinoHttp({
      logger: log,
      genReqId: (req, res) => {
        const given = req.headers['x-request-id'];
        const id = typeof given === 'string' && /^[\w.-]{1,100}$/.test(given) ? given : randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      // Only what is needed to follow a request: never headers (they carry the API key) or bodies.
      serializers: { req: (r) => ({ id: r.id, method: r.method, url: r.url }), res: (r) => ({ statusCode: r.statusCode }) },
      autoLogging: { ignore: (req) => req.url === '/health' || req.url === '/metrics' },
    }),
  );
  const metrics = app.get(MetricsService);
  app.use(metrics.middleware());
  // Before any body parser: a body is only read once its key is known (the queue board checks its own first).
  app.use(authenticateBodies(app.get(AuthService), app.get(RateLimiter), [QUEUE_BOARD_PATH]));
  app.use(requireJsonBodies(USAGE_ROUTE)); // 415 for a body sent as anything else
  app.use(usageBodyParsers(config)); // first: bulk usage history may be larger than FALLOW_BODY_LIMIT
  // The board parses its bodies itself, after its guard: the global parser leaves its requests alone.
  app.use(outside(QUEUE_BOARD_PATH, express.json({ limit: config.bodyLimit, type: ['application/json', 'application/*+json'] })));
  app.use(bodyShapeGuard); // before anything recursive (validation) sees the body
  app.use(bodyErrors(config));
  app.useGlobalPipes(validationPipe());
  app.enableShutdownHooks();

  const document = buildOpenApiDocument(app, config);
  const http = app.getHttpAdapter().getInstance() as express.Express;
  http.get('/openapi.json', (_req, res) => res.json(document));
  app.use('/docs', swaggerUi.serve, swaggerUi.setup(document, { customSiteTitle: 'Fallow API' }));
  http.get('/metrics', async (_req, res) => {
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  const board = queueBoard([...app.get(WorkQueues).all(), app.get<Queue>(getQueueToken(WEBHOOK_QUEUE), { strict: false })], app.get(AuthService));
  app.use(QUEUE_BOARD_PATH, board.guard, redisAnswers(app.get<Redis>(REDIS)), board.router);
  metrics.listen();
  return app;
}

/**
 * Malformed JSON and oversized bodies as problem+json (body-parser runs before Nest's filters). A 413 names the
 * limit that refused the body, its value and the variable that sets it, and the body's size when it was declared.
 */
function bodyErrors(config: Pick<Config, 'bodyLimit' | 'usageBodyLimit'>) {
  return (err: Error & { type?: string; status?: number; limit?: number; length?: number }, req: Request, res: Response, next: NextFunction): void => {
    if (!err) return next();
    const tooLarge = err.type === 'entity.too.large';
    const status = tooLarge ? 413 : err.status && err.status < 500 ? err.status : 400;
    let detail = `the body is not valid JSON: ${err.message}`;
    if (tooLarge) {
      const usage = USAGE_ROUTE.test(req.path);
      const [name, value] = usage ? ['FALLOW_USAGE_BODY_LIMIT', config.usageBodyLimit] : ['FALLOW_BODY_LIMIT', config.bodyLimit];
      const instead = usage ? 'post the history in several parts' : 'a large instance can go by parts instead (a cluster, its forecast and a batch, solved by reference)';
      const size = typeof err.length === 'number' && Number.isFinite(err.length) ? ` (${err.length} bytes)` : '';
      const bytes = typeof err.limit === 'number' ? ` = ${err.limit} bytes` : '';
      detail = `the request body${size} is larger than the limit of ${value}${bytes} (${name}); ${instead}`;
    }
    sendProblem(req, res, new ProblemException(status, tooLarge ? 'Payload too large' : 'Malformed body', detail, [{ path: '$', message: tooLarge ? 'body too large' : 'invalid JSON' }]));
  };
}

/** `handler` everywhere but under `path`. */
function outside(path: string, handler: RequestHandler): RequestHandler {
  return (req, res, next) => (req.path === path || req.path.startsWith(`${path}/`) ? next() : handler(req, res, next));
}

/** The queue board reads Redis on every page: with Redis away it answers 503 at once instead of hanging. */
function redisAnswers(redis: Redis) {
  return (req: Request, res: Response, next: NextFunction): void => {
    redis.ping().then(
      () => next(),
      () => void sendProblem(req, res, new ProblemException(503, 'Service unavailable', 'the queue board needs Redis, which does not answer; try again shortly')),
    );
  };
}
