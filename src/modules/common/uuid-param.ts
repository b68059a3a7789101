import { ArgumentMetadata, HttpStatus, Injectable, PipeTransform } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { ProblemException } from './problem';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
