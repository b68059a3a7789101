/** How the chart routes (plans, simulations, accounting) answer: a `file` parameter, SVG or a Vega-Lite spec. */
import { applyDecorators, HttpStatus } from '@nestjs/common';
import { ApiParam, ApiProduces, ApiResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import { chartFiles, ChartFormat, parseChartFile, SVG_TYPE } from '../../charts/charts';
import { ProblemException } from './problem';

/**
 * A chart as its response body: the SVG, or the Vega-Lite spec already serialised (as made on a chart thread and
 * cached); `source`, where a route says where its body was made (CHART_SOURCE_HEADER).
 */
export type ChartBody = ({ format: 'svg'; svg: string } | { format: 'json'; json: string }) & { source?: ChartSource };

/**
 * Where a plan chart's body was made: `stored`, by the worker when it stored the plan (read from plan_charts, now or
 * earlier and kept in memory); `rendered`, by this API process on request (now or earlier and kept in memory).
 */
export type ChartSource = 'stored' | 'rendered';
export const CHART_SOURCE_HEADER = 'X-Chart-Source';

/** The `file` path parameter and the two representations of a chart route. */
export function ApiChart(charts: readonly string[], opts: { source?: boolean } = {}) {
  const headers = opts.source
    ? {
        [CHART_SOURCE_HEADER]: {
          description: 'stored: rendered by the worker when it stored the plan (large plans\' charts the plan page shows); rendered: made by the API on request',
          schema: { type: 'string', enum: ['stored', 'rendered'] },
        },
      }
    : undefined;
  return applyDecorators(
    ApiParam({ name: 'file', enum: chartFiles(charts), description: '<chart>.svg: the chart rendered (image/svg+xml); <chart>.json: its Vega-Lite spec' }),
    ApiProduces(SVG_TYPE, 'application/json'),
    ApiResponse({
      status: 200,
      description: 'the chart as SVG, or its Vega-Lite spec (JSON, with $schema) for clients that render it themselves',
      ...(headers ? { headers } : {}),
      content: { [SVG_TYPE]: { schema: { type: 'string' } }, 'application/json': { schema: { type: 'object', additionalProperties: true } } },
    }),
  );
}

/** Sends SVG or the spec's JSON text with its media type (Express would call a string text/html). */
export function sendChart(res: Response, body: ChartBody): string {
  if (body.source) res.set(CHART_SOURCE_HEADER, body.source);
  if (body.format === 'json') {
    res.type('application/json');
    return body.json;
  }
  res.type(SVG_TYPE);
  return body.svg;
}

/** The chart and format a file name asks for ("gantt.svg"); any other name is a 404 naming the charts there are. */
export function chartFile<C extends string>(file: string, charts: readonly C[]): { chart: C; format: ChartFormat } {
  const which = parseChartFile(file, charts);
  if (!which) throw new ProblemException(HttpStatus.NOT_FOUND, 'Not found', `chart ${JSON.stringify(file)} does not exist; the charts are ${chartFiles(charts).join(', ')}`);
  return which;
}
