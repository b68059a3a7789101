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

export function toProblem(error: unknown): ProblemBody {
  if (error instanceof ProblemException)
    return { type: 'about:blank', title: error.title, status: error.getStatus(), detail: error.detail, problems: error.problems };
  if (error instanceof ValidationError)
    return { type: 'about:blank', title: 'Invalid request', status: 422, detail: error.message, problems: error.issues };
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const r = error.getResponse();
    const detail = typeof r === 'string' ? r : Array.isArray((r as any).message) ? (r as any).message.join('; ') : (r as any).message;
    return { type: 'about:blank', title: HttpStatus[status]?.replace(/_/g, ' ').toLowerCase() ?? 'Error', status, detail, problems: [] };
  }
  return { type: 'about:blank', title: 'Internal server error', status: 500, detail: 'an unexpected error occurred; quote the request id', problems: [] };
}
