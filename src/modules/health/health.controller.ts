import { Controller, Get, HttpStatus } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/principal';
import { ApiProblems } from '../common/api-problems';
import { ProblemException } from '../common/problem';
import { HealthDto } from './health.dto';
import { HealthService } from './health.service';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly checks: HealthService) {}

  @Get()
  @Public()
  @ApiOperation({
    operationId: 'health',
    summary: 'Database and Redis reachable (503 otherwise)',
    description: 'For load balancers and orchestrators: needs no API key and is not rate limited. 200 when Postgres and Redis both answer; 503 naming the one that does not.',
    security: [],
  })
  @ApiOkResponse({ type: HealthDto })
  @ApiProblems(400, 413, 503)
  async health(): Promise<HealthDto> {
    const { database, redis } = await this.checks.probe();
    if (!database || !redis)
      throw new ProblemException(HttpStatus.SERVICE_UNAVAILABLE, 'Unhealthy', `database ${database ? 'up' : 'down'}, redis ${redis ? 'up' : 'down'}`);
    return { status: 'ok', database: 'up', redis: 'up' };
  }
}
