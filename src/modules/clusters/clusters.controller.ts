import { UuidParam } from '../common/uuid-param';
import { Body, Controller, Get, HttpCode, Param, ParseIntPipe, Post, Put, Query, Res, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentPrincipal, Principal, Roles } from '../auth/principal';
import { ApiProblems } from '../common/api-problems';
import { pageLimit } from '../common/cursor';
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
  @ApiOperation({ operationId: 'createCluster', summary: 'Create a cluster (version 1); Location names it' })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'a retry with the same key returns the first response' })
  @ApiCreatedResponse({ type: ClusterDto })
  @ApiProblems(400, 401, 403, 413, 422, 429)
  async create(@CurrentPrincipal() p: Principal, @Body() dto: CreateClusterDto, @Res({ passthrough: true }) res: Response): Promise<ClusterDto> {
    const created = await this.clusters.create(p, dto);
    res.location(`/v1/clusters/${created.cluster.id}`);
    return toClusterDto(created);
  }

  @Get()
  @ApiOperation({ operationId: 'listClusters', summary: 'Clusters, newest first, with their current version summarised' })
  @ApiQuery({ name: 'cursor', required: false })
  @ApiQuery({ name: 'limit', required: false, type: Number })
  @ApiOkResponse({ type: ClusterPageDto })
  @ApiProblems(401, 403, 422, 429)
  async list(@CurrentPrincipal() p: Principal, @Query('cursor') cursor?: string, @Query('limit') limit?: string): Promise<ClusterPageDto> {
    return this.clusters.list(p, pageLimit(limit), cursor);
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getCluster', summary: 'The cluster with its current version: metrics, nodes and version number' })
  @ApiOkResponse({ type: ClusterDto })
  @ApiProblems(400, 401, 403, 404, 429)
  async get(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string): Promise<ClusterDto> {
    return toClusterDto(await this.clusters.get(p, id));
  }

  @Get(':id/versions/:version')
  @ApiOperation({ operationId: 'getClusterVersion', summary: 'One version of a cluster, as a solve or forecast of that version saw it' })
  @ApiParam({ name: 'version', schema: { type: 'integer', minimum: 1 } })
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
  @ApiOperation({ operationId: 'updateCluster', summary: 'Write a new version (metrics and nodes replaced whole); earlier versions stay readable' })
  @ApiOkResponse({ type: ClusterDto, description: 'the cluster at its new version' })
  @ApiProblems(400, 401, 403, 404, 413, 422, 429)
  async update(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string, @Body() dto: UpdateClusterDto): Promise<ClusterDto> {
    return toClusterDto(await this.clusters.update(p, id, dto));
  }
}
