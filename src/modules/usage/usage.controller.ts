import { ApiUuidPath, UuidParam } from '../common/uuid-param';
import { Controller, createParamDecorator, ExecutionContext, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, Roles } from '../auth/principal';
import { ApiProblems } from '../common/api-problems';
import { PostUsageDto, UsageIngestResultDto, UsageSummaryDto } from './usage.dto';
import { UsageService } from './usage.service';

/** The parsed body, untouched by pipes (Nest runs the global ValidationPipe on custom decorators only when asked to). */
const RawBody = createParamDecorator((_: unknown, ctx: ExecutionContext): unknown => ctx.switchToHttp().getRequest().body);

const CSV_EXAMPLE = 'timestamp,node,metric,value\n1704067200,h01,cpu,0.42\n1704067200,h01,ram,0.61\n1704067500,h01,cpu,0.40\n';

/** Usage history of a farmer's cluster, bulk-ingested and summarised; forecast builds train on it. */
@ApiTags('usage')
@ApiBearerAuth()
@Roles('farmer')
@ApiExtraModels(PostUsageDto)
@Controller('v1/clusters/:clusterId/usage')
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  /*
   * @RawBody, not @Body: the global validation pipe would copy each of ~400k sample objects through
   * class-transformer; parseJsonSamples / parseCsvSamples check the body instead, with paths. The body
   * (a JSON object, or the text of a text/csv body) may be up to FALLOW_USAGE_BODY_LIMIT (usage-body.ts).
   */
  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'postUsage',
    summary: 'Ingest usage history in bulk (JSON or CSV); samples already stored are ignored and counted',
    description:
      'Every sample is checked against the cluster\'s current version (node, metric), a timestamp of whole Unix seconds and a value ' +
      'in [0, 1]; any problem is a 422 naming each bad sample (`samples[17].value`, or `line 18` for CSV; the first 100 are listed, ' +
      'the detail gives the total) and nothing is written. Re-posting the same samples changes nothing (they count as duplicates). ' +
      'Body limit: FALLOW_USAGE_BODY_LIMIT (default 100mb).',
    requestBody: {
      required: true,
      description: 'JSON `{"samples": [...]}`, or CSV with the header `timestamp,node,metric,value` (Content-Type: text/csv)',
      content: {
        'application/json': { schema: { $ref: getSchemaPath(PostUsageDto) } },
        'text/csv': { schema: { type: 'string', example: CSV_EXAMPLE } },
      },
    },
  })
  @ApiUuidPath('clusterId', 'the cluster the samples are of')
  @ApiOkResponse({ type: UsageIngestResultDto })
  @ApiProblems(400, 401, 403, 404, 413, 415, 422, 429)
  async ingest(@CurrentPrincipal() p: Principal, @Param('clusterId', UuidParam) clusterId: string, @RawBody() body: unknown): Promise<UsageIngestResultDto> {
    return this.usage.ingest(p, clusterId, body);
  }

  @Get('summary')
  @ApiOperation({ operationId: 'getUsageSummary', summary: 'Per node and metric: how many samples are stored and their time range', description: 'What forecast builds can learn from: per node and metric, the sample count and the first and last sample times.' })
  @ApiUuidPath('clusterId', 'the cluster')
  @ApiOkResponse({ type: UsageSummaryDto })
  @ApiProblems(400, 401, 403, 404, 429)
  async summary(@CurrentPrincipal() p: Principal, @Param('clusterId', UuidParam) clusterId: string): Promise<UsageSummaryDto> {
    return this.usage.summary(p, clusterId);
  }
}
