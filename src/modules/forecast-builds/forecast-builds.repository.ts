import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ForecastBuildEntity } from './forecast-build.entity';

/** Reads of forecast builds (every status change is the long-work kernel's: LongWorkRepository). */
@Injectable()
export class ForecastBuildsRepository {
  constructor(@InjectRepository(ForecastBuildEntity) private readonly builds: Repository<ForecastBuildEntity>) {}

  findScoped(id: string, scope: { tenantId?: string }): Promise<ForecastBuildEntity | null> {
    return this.builds.findOneBy({ id, ...scope });
  }
}
