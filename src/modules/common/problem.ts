import { HttpException, HttpStatus } from '@nestjs/common';
import { Issue } from '../../engine/model/types';

/**
 * An RFC 9457 problem. Every error the API returns is one of these, sent as application/problem+json;
 * validation problems list each issue with its JSON path so a client can fix them all at once.
 */
export class ProblemException extends HttpException {
  constructor(
    status: number,
    readonly title: string,
    readonly detail?: string,
    readonly problems: Issue[] = [],
    readonly headers: Record<string, string> = {},
    /** RFC 9457 extension members sent beside the standard ones (a commit's `conflicts`). */
    readonly extensions: Record<string, unknown> = {},
  ) {
    super({ title, detail, problems }, status);
  }
}

export const invalid = (problems: Issue[], detail = 'the request has invalid fields; see problems') =>
  new ProblemException(HttpStatus.UNPROCESSABLE_ENTITY, 'Invalid request', detail, problems);

/** 404 also for what exists but belongs to someone else: a tenant must not learn that it exists. */
export const notFound = (what: string, id: string) =>
  new ProblemException(HttpStatus.NOT_FOUND, 'Not found', `${what} ${id} does not exist`);

export const conflict = (detail: string, problems: Issue[] = [], extensions: Record<string, unknown> = {}) =>
  new ProblemException(HttpStatus.CONFLICT, 'Conflict', detail, problems, {}, extensions);

/** Prefixes every issue's path, e.g. the engine's `jobs[0].id` inside a request becomes `instance.jobs[0].id`. */
export function prefixIssues(prefix: string, issues: Issue[]): Issue[] {
  return issues.map((i) => ({ path: i.path === '$' ? prefix : `${prefix}.${i.path}`.replace('.[', '['), message: i.message }));
}
