import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ValidationError } from '../../engine/model/errors';
import { Issue } from '../../engine/model/types';
import { ProblemException } from './problem';

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  problems: Issue[];
  requestId?: string;
}

/** Every error leaves as application/problem+json (RFC 9457), with the request id for support. */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  private readonly log = new Logger('http');

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const status = sendProblem(http.getRequest<Request>(), http.getResponse<Response>(), error);
    if (status >= 500) this.log.error(error instanceof Error ? error.stack : String(error));
  }
}

/**
 * Answers `error` as problem+json with the request's URL and id: what ProblemFilter does for Nest, for
 * plain Express middleware too (body parsing, the queue board, checks before the body is read). A
 * ProblemException's headers are sent; a 503 always says when to retry. Returns the status sent.
 */
export function sendProblem(req: Request, res: Response, error: unknown): number {
  const body = toProblem(error);
  body.instance = req.originalUrl;
  body.requestId = (req as Request & { id?: string }).id;
  if (error instanceof ProblemException) for (const [k, v] of Object.entries(error.headers)) res.setHeader(k, v);
  if (body.status === 503 && !res.getHeader('Retry-After')) res.setHeader('Retry-After', String(RETRY_AFTER_S));
  res.status(body.status).type('application/problem+json').send(JSON.stringify(body));
  return body.status;
}

export function problemBody(status: number, title: string, detail?: string, problems: Issue[] = []): ProblemBody {
  return { type: 'about:blank', title, status, detail, problems };
}

export function toProblem(error: unknown): ProblemBody {
  if (error instanceof ProblemException) return { ...problemBody(error.getStatus(), error.title, error.detail, error.problems), ...error.extensions };
  if (error instanceof ValidationError) return problemBody(422, 'Invalid request', error.message, error.issues);
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const r = error.getResponse();
    const detail = typeof r === 'string' ? r : Array.isArray((r as any).message) ? (r as any).message.join('; ') : (r as any).message;
    const name = HttpStatus[status]?.replace(/_/g, ' ').toLowerCase();
    return problemBody(status, name ? name[0].toUpperCase() + name.slice(1) : 'Error', detail);
  }
  if (isDependencyDown(error)) return problemBody(503, 'Service unavailable', 'the database or Redis did not answer; nothing was changed, try again shortly');
  return problemBody(500, 'Internal server error', 'an unexpected error occurred; quote the request id');
}

/** Seconds a client should wait before retrying a 503. */
const RETRY_AFTER_S = 5;

/** Connection-level codes of node, pg (SQLSTATE class 08, 57P0x) and ioredis: the dependency is away, not the request wrong. */
const DOWN_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', '57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006']);

/** Whether an error means Postgres or Redis is unreachable (so the answer is a 503 with Retry-After). */
export function isDependencyDown(error: unknown): boolean {
  for (let e = error as { code?: string; message?: string; driverError?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; depth++) {
    if (e.code && DOWN_CODES.has(e.code)) return true;
    if (typeof e.message === 'string' && /Connection terminated|timeout exceeded when trying to connect|Stream isn't writeable|Connection is closed|Command timed out/.test(e.message)) return true;
    e = (e.driverError ?? e.cause) as typeof e;
  }
  return false;
}
