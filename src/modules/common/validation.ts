import { ValidationError, ValidationPipe } from '@nestjs/common';
import { Issue } from '../../engine/model/types';
import { invalid } from './problem';

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
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: false,
    exceptionFactory: (errors) => invalid(flattenValidationErrors(errors)),
  });
}
