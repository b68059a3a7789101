import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Roles } from '../auth/principal';
import { ApiProblems } from '../common/api-problems';
import { pageLimit } from '../common/cursor';
import { ApiPage } from '../common/api-page';
import { ClustersService } from '../clusters/clusters.service';
import { forecastEndsAt, ForecastsService } from '../forecasts/forecasts.service';
import { OfferedClusterPageDto } from './offer.dto';

/** What customers may solve on: every farmer's lendable clusters, with the forecast a solve can use now. */
@ApiTags('clusters')
@ApiBearerAuth()
@Roles('customer')
@Controller('v1/offered-clusters')
export class OffersController {
  constructor(
    private readonly clusters: ClustersService,
    private readonly forecasts: ForecastsService,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'listOfferedClusters',
    summary: 'Lendable clusters a customer may solve on, newest first: metrics, nodes and the forecast covering now',
    description: 'Every farmer\'s lendable clusters at their current version. `forecast` is the newest forecast whose window contains the present (null: none does, and a solve on the cluster needs a horizon); its id goes into a solve\'s forecastId.',
  })
  @ApiPage('clusters')
  @ApiOkResponse({ type: OfferedClusterPageDto })
  @ApiProblems(401, 403, 422, 429)
  async list(@Query('cursor') cursor?: string, @Query('limit') limit?: string): Promise<OfferedClusterPageDto> {
    const page = await this.clusters.listOffered(pageLimit(limit), cursor);
    const now = new Date();
    const current = new Map((await this.forecasts.currentFor(page.items, now)).map((f) => [f.clusterId, f]));
    return {
      items: page.items.map((c) => {
        const f = current.get(c.id);
        const forecast = f
          ? { id: f.id, startsAt: f.startsAt.toISOString(), endsAt: forecastEndsAt(f).toISOString(), slotSeconds: f.slotSeconds, slots: f.slots, quantile: f.quantile }
          : null;
        return { ...c, forecast };
      }),
      nextCursor: page.nextCursor,
    };
  }
}
