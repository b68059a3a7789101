import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { Issue } from '../../engine/model/types';
import { invalid, ProblemException } from './problem';

/**
 * A request DTO whose body has checks beyond its decorators (the engine's document validator) exposes them
 * as a static `deepIssues(body)`, so that a request with both kinds of mistakes hears of all of them in one
 * answer instead of the decorators' first and the rest after a retry.
 */
export interface DeepChecked {
  deepIssues(body: Record<string, unknown>): Issue[];
}

/** class-validator's nested errors as flat issues with JSON paths (`nodes[2].capacity`). */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): Issue[] {
  const out: Issue[] = [];
  for (const e of errors) {
    const path = !parent ? e.property : /^\d+$/.test(e.property) ? `${parent}[${e.property}]` : `${parent}.${e.property}`;
    for (const message of Object.values(e.constraints ?? {})) out.push({ path, message: message.replace(/^\S+ /, '') });
    if (e.children?.length) out.push(...flattenValidationErrors(e.children, path));
  }
  return out;
}

/** Unknown fields are errors (a typo must not be silently ignored); every problem is reported at once. */
export function validationPipe(): ValidationPipe {
  return new DeepValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: false,
    exceptionFactory: (errors) => invalid(flattenValidationErrors(errors)),
  });
}

/** The decorators' problems, plus the DTO's deep ones (DeepChecked) when the decorators found some. */
class DeepValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    try {
      return await super.transform(value, metadata);
    } catch (e) {
      const deep = (metadata.metatype as Partial<DeepChecked> | undefined)?.deepIssues;
      if (!(e instanceof ProblemException) || typeof deep !== 'function' || typeof value !== 'object' || value === null || Array.isArray(value)) throw e;
      const seen = new Set(e.problems.map((i) => `${i.path}\n${i.message}`));
      const more = deep(value as Record<string, unknown>).filter((i) => !seen.has(`${i.path}\n${i.message}`));
      throw more.length ? invalid([...e.problems, ...more]) : e;
    }
  }
}
