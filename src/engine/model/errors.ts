import { Issue } from './types';

/** Thrown when a document is not valid; carries every problem found, each with its JSON path. */
export class ValidationError extends Error {
  constructor(
    readonly what: string,
    readonly issues: Issue[],
  ) {
    super(`invalid ${what}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
    this.name = 'ValidationError';
  }
}
