import { UuidParam } from '../common/uuid-param';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../common/api-problems';
import { IdempotencyInterceptor, SecretInResponse } from '../common/idempotency.interceptor';
import { FC_DEFAULTS } from '../../engine/posum/score';
import { ApiKeyEntity } from './api-key.entity';
import { Roles } from './principal';
import { ScoreWeightsDto } from '../common/score-weights.dto';
import { CreatedKeyDto, CreateKeyDto, CreateTenantDto, KeyDto, RevenueShareDto, TenantDto } from './tenant.dto';
import { TenantEntity } from './tenant.entity';
import { TenantsService } from './tenants.service';

const toTenant = (t: TenantEntity): TenantDto => ({ id: t.id, name: t.name, revenueShareBps: t.revenueShareBps, scoreWeights: t.scoreWeights ?? FC_DEFAULTS, createdAt: t.createdAt.toISOString() });
const toKey = (k: ApiKeyEntity): KeyDto => ({ id: k.id, tenantId: k.tenantId, role: k.role, label: k.label, prefix: k.prefix, createdAt: k.createdAt.toISOString(), revokedAt: k.revokedAt?.toISOString() ?? null });

/** Operators manage tenants and their keys. */
@ApiTags('tenants')
@ApiBearerAuth()
@Roles('operator')
@Controller('v1/tenants')
export class TenantsController {
  constructor(private readonly tenants: TenantsService) {}

  @Post()
  @HttpCode(201)
  @UseInterceptors(IdempotencyInterceptor)
  @ApiOperation({ operationId: 'createTenant' })
  @ApiCreatedResponse({ type: TenantDto })
  @ApiProblems(401, 403, 409, 422)
  async create(@Body() dto: CreateTenantDto): Promise<TenantDto> {
    return toTenant(await this.tenants.create(dto.name));
  }

  @Get()
  @ApiOperation({ operationId: 'listTenants' })
  @ApiOkResponse({ type: [TenantDto] })
  @ApiProblems(401, 403)
  async list(): Promise<TenantDto[]> {
    return (await this.tenants.list()).map(toTenant);
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getTenant' })
  @ApiOkResponse({ type: TenantDto })
  @ApiProblems(401, 403, 404)
  async get(@Param('id', UuidParam) id: string): Promise<TenantDto> {
    return toTenant(await this.tenants.get(id));
  }

  @Put(':id/revenue-share')
  @ApiOperation({ operationId: 'setRevenueShare', summary: 'Set a farmer tenant\'s revenue share (basis points); accounting applies the current value' })
  @ApiOkResponse({ type: TenantDto })
  @ApiProblems(401, 403, 404, 422)
  async setRevenueShare(@Param('id', UuidParam) id: string, @Body() dto: RevenueShareDto): Promise<TenantDto> {
    return toTenant(await this.tenants.setRevenueShare(id, dto.shareBps));
  }

  @Put(':id/score-weights')
  @ApiOperation({
    operationId: 'setScoreWeights',
    summary: "Set a tenant's default POSUM weights (alpha, beta, gamma of Eq. 5)",
    description: "Used by the tenant's `portfolio` solves and `posum` simulations that give no alpha, beta or gamma of their own; a request's own values override them one by one.",
  })
  @ApiOkResponse({ type: TenantDto })
  @ApiProblems(401, 403, 404, 422)
  async setScoreWeights(@Param('id', UuidParam) id: string, @Body() dto: ScoreWeightsDto): Promise<TenantDto> {
    return toTenant(await this.tenants.setScoreWeights(id, dto));
  }

  @Post(':id/keys')
  @HttpCode(201)
  @UseInterceptors(IdempotencyInterceptor)
  @SecretInResponse('key')
  @ApiOperation({
    operationId: 'createKey',
    summary: 'Issue an API key with one role; the key is in this response only',
    description: 'The key is never stored. A retry with the same Idempotency-Key is therefore not replayed: it answers 409 naming the id of the key the first request issued (revoke it and issue a new one if the response was lost).',
  })
  @ApiCreatedResponse({ type: CreatedKeyDto })
  @ApiProblems(401, 403, 404, 409, 422)
  async createKey(@Param('id', UuidParam) id: string, @Body() dto: CreateKeyDto): Promise<CreatedKeyDto> {
    const { row, key } = await this.tenants.issueKey(id, dto.role, dto.label ?? '');
    return { ...toKey(row), key };
  }

  @Get(':id/keys')
  @ApiOperation({ operationId: 'listKeys' })
  @ApiOkResponse({ type: [KeyDto] })
  @ApiProblems(401, 403, 404)
  async listKeys(@Param('id', UuidParam) id: string): Promise<KeyDto[]> {
    return (await this.tenants.listKeys(id)).map(toKey);
  }

  @Delete(':id/keys/:keyId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'revokeKey' })
  @ApiNoContentResponse({ description: 'revoked' })
  @ApiProblems(401, 403, 404)
  async revokeKey(@Param('id', UuidParam) id: string, @Param('keyId', UuidParam) keyId: string): Promise<void> {
    await this.tenants.revokeKey(id, keyId);
  }
}
