import { ApiUuidPath, UuidParam } from '../common/uuid-param';
import { Body, Controller, Get, HttpCode, Param, ParseIntPipe, Post, Put, Query, Res, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentPrincipal, Principal, Roles } from '../auth/principal';
import { ApiProblems } from '../common/api-problems';
import { pageLimit } from '../common/cursor';
import { ApiPage } from '../common/api-page';
import { IdempotencyInterceptor } from '../common/idempotency.interceptor';
import { ClusterDto, ClusterPageDto, ClusterVersionDto, CreateClusterDto, UpdateClusterDto } from './cluster.dto';
import { ClustersService, toClusterDto, toClusterVersionDto } from './clusters.service';

/** A farmer's clusters: nodes and their capacities, versioned on every update. */
@ApiTags('clusters')
@ApiBearerAuth()
@Roles('farmer')
@Controller('v1/clusters')
export class ClustersController {
  constructor(private readonly clusters: ClustersService) {}

  @Post()
  @HttpCode(201)
  @UseInterceptors(IdempotencyInterceptor)
  @ApiOperation({ operationId: 'createCluster', summary: 'Create a cluster (version 1); Location names it', description: 'The cluster\'s nodes (capacity per metric, speed, rack, links) and metrics are checked whole; a 422 lists every problem with its path. Forecasts and usage refer to it by id.' })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'a retry with the same key returns the first response' })
  @ApiCreatedResponse({ type: ClusterDto })
  @ApiProblems(400, 401, 403, 413, 422, 429)
  async create(@CurrentPrincipal() p: Principal, @Body() dto: CreateClusterDto, @Res({ passthrough: true }) res: Response): Promise<ClusterDto> {
    const created = await this.clusters.create(p, dto);
    res.location(`/v1/clusters/${created.cluster.id}`);
    return toClusterDto(created);
  }

  @Get()
  @ApiOperation({ operationId: 'listClusters', summary: 'Clusters, newest first, with their current version summarised', description: 'Your clusters (an operator: everyone\'s), each with its current version\'s metrics and node count.' })
  @ApiPage('clusters')
  @ApiOkResponse({ type: ClusterPageDto })
  @ApiProblems(401, 403, 422, 429)
  async list(@CurrentPrincipal() p: Principal, @Query('cursor') cursor?: string, @Query('limit') limit?: string): Promise<ClusterPageDto> {
    return this.clusters.list(p, pageLimit(limit), cursor);
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getCluster', summary: 'The cluster with its current version: metrics, nodes and version number', description: 'The current version in full; solves and forecasts record the version they used (getClusterVersion).' })
  @ApiUuidPath('id', 'the cluster')
  @ApiOkResponse({ type: ClusterDto })
  @ApiProblems(400, 401, 403, 404, 429)
  async get(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string): Promise<ClusterDto> {
    return toClusterDto(await this.clusters.get(p, id));
  }

  @Get(':id/versions/:version')
  @ApiOperation({ operationId: 'getClusterVersion', summary: 'One version of a cluster, as a solve or forecast of that version saw it', description: 'Versions are never overwritten: this is the cluster as it was at that version.' })
  @ApiUuidPath('id', 'the cluster')
  @ApiParam({ name: 'version', schema: { type: 'integer', minimum: 1 }, description: 'the version number: 1 at creation, one more at each update' })
  @ApiOkResponse({ type: ClusterVersionDto })
  @ApiProblems(400, 401, 403, 404, 429)
  async getVersion(
    @CurrentPrincipal() p: Principal,
    @Param('id', UuidParam) id: string,
    @Param('version', new ParseIntPipe()) version: number,
  ): Promise<ClusterVersionDto> {
    return toClusterVersionDto(await this.clusters.getVersion(p, id, version));
  }

  @Put(':id')
  @ApiOperation({ operationId: 'updateCluster', summary: 'Write a new version (metrics and nodes replaced whole); earlier versions stay readable', description: 'The new version replaces metrics and nodes whole; solves and forecasts already made keep the version they were made for.' })
  @ApiUuidPath('id', 'the cluster')
  @ApiOkResponse({ type: ClusterDto, description: 'the cluster at its new version' })
  @ApiProblems(400, 401, 403, 404, 413, 422, 429)
  async update(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string, @Body() dto: UpdateClusterDto): Promise<ClusterDto> {
    return toClusterDto(await this.clusters.update(p, id, dto));
  }
}
