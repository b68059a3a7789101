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
    const req = http.getRequest<Request & { id?: string }>();
    const res = http.getResponse<Response>();
    const body = toProblem(error);
    body.instance = req.originalUrl;
    body.requestId = req.id;
    if (body.status >= 500) this.log.error(error instanceof Error ? error.stack : String(error));
    if (error instanceof ProblemException) for (const [k, v] of Object.entries(error.headers)) res.setHeader(k, v);
    res.status(body.status).type('application/problem+json').send(JSON.stringify(body));
  }
}

export function problemBody(status: number, title: string, detail?: string, problems: Issue[] = []): ProblemBody {
  return { type: 'about:blank', title, status, detail, problems };
}

export function toProblem(error: unknown): ProblemBody {
  if (error instanceof ProblemException) return problemBody(error.getStatus(), error.title, error.detail, error.problems);
  if (error instanceof ValidationError) return problemBody(422, 'Invalid request', error.message, error.issues);
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const r = error.getResponse();
    const detail = typeof r === 'string' ? r : Array.isArray((r as any).message) ? (r as any).message.join('; ') : (r as any).message;
    return problemBody(status, HttpStatus[status]?.replace(/_/g, ' ').toLowerCase() ?? 'Error', detail);
  }
  return problemBody(500, 'Internal server error', 'an unexpected error occurred; quote the request id');
}
