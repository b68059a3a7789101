import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ProblemDto } from './format.dto';

const MEANING: Record<number, string> = {
  400: 'malformed request',
  401: 'missing, unknown or revoked API key',
  403: 'the key\'s role may not do this',
  404: 'does not exist or belongs to another tenant',
  409: 'conflicts with the current state',
  413: 'body too large',
  415: 'unsupported Content-Type',
  422: 'invalid fields; each problem names its JSON path',
  429: 'rate limit exceeded (see Retry-After)',
};

/** Documents the application/problem+json errors a route can answer with. */
export function ApiProblems(...statuses: number[]) {
  return applyDecorators(
    ...statuses.map((status) => ApiResponse({ status, description: MEANING[status] ?? 'error', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDto' } } } })),
  );
}

export { ProblemDto };
