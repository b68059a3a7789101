import { applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { LIST_PAGE, PageLimits } from './cursor';

/**
 * Documents a listing's `cursor` and `limit` query parameters, with the page sizes `pageLimit` applies (the
 * same constants, so the documented default and maximum are the ones the listing uses).
 */
export function ApiPage(what: string, limits: PageLimits = LIST_PAGE) {
  return applyDecorators(
    ApiQuery({
      name: 'cursor',
      required: false,
      type: String,
      description: `the previous page's \`nextCursor\`, for the ${what} after it; omitted: the first page`,
    }),
    ApiQuery({
      name: 'limit',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: limits.max, default: limits.fallback },
      description: `how many ${what} a page holds at most`,
    }),
  );
}
