import { ArgumentMetadata, HttpStatus, Injectable, PipeTransform } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { ProblemException } from './problem';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A path parameter that must be a UUID (`@Param('id', UuidParam)`): a malformed one is a 400 problem naming
 * the parameter, in the same problem+json shape as every other error (Nest's ParseUUIDPipe answers with no
 * problems and no name).
 */
@Injectable()
export class UuidParam implements PipeTransform<unknown, string> {
  transform(value: unknown, metadata: ArgumentMetadata): string {
    if (typeof value === 'string' && UUID.test(value)) return value;
    const name = metadata.data ?? 'id';
    throw new ProblemException(HttpStatus.BAD_REQUEST, 'Bad request', `the path parameter ${name} must be a UUID`, [
      { path: name, message: `must be a UUID, got ${JSON.stringify(value)}` },
    ]);
  }
}

/** Documents a UUID path parameter (checked by UuidParam): what it names. */
export function ApiUuidPath(name: string, description: string) {
  return ApiParam({ name, description, schema: { type: 'string', format: 'uuid' } });
}

/**
 * `field: must be a UUID` for each of `fields` the body gives that is not one: an id that reaches a query
 * unchecked is a database error ("invalid input syntax for type uuid", a 500), not the client's 422.
 */
export function uuidFieldIssues(body: object, fields: readonly string[]): { path: string; message: string }[] {
  const b = body as Record<string, unknown>;
  return fields
    .filter((f) => b[f] !== undefined && !(typeof b[f] === 'string' && UUID.test(b[f] as string)))
    .map((f) => ({ path: f, message: `must be a UUID, got ${JSON.stringify(b[f])?.slice(0, 60) ?? String(b[f])}` }));
}
