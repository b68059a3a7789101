import { Controller, Get, HttpStatus, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { Public } from '../auth/principal';
import { ApiProblems } from '../common/api-problems';
import { ProblemException } from '../common/problem';
import { REDIS } from '../queue/queue.module';

export class HealthDto {
  @ApiProperty({ enum: ['ok'] }) status!: 'ok';
  @ApiProperty({ enum: ['up'] }) database!: 'up';
  @ApiProperty({ enum: ['up'] }) redis!: 'up';
}

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  @Get()
  @Public()
  @ApiOperation({ operationId: 'health', summary: 'Database and Redis reachable (503 otherwise)' })
  @ApiOkResponse({ type: HealthDto })
  @ApiProblems(503)
  async health(): Promise<HealthDto> {
    const [database, redis] = await Promise.all([
      this.db.query('SELECT 1').then(() => true, () => false),
      withTimeout(this.redis.ping(), 1000).then((r) => r === 'PONG', () => false),
    ]);
    if (!database || !redis)
      throw new ProblemException(HttpStatus.SERVICE_UNAVAILABLE, 'Unhealthy', `database ${database ? 'up' : 'down'}, redis ${redis ? 'up' : 'down'}`);
    return { status: 'ok', database: 'up', redis: 'up' };
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);
}
