import { ApiUuidPath, UuidParam } from '../common/uuid-param';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiHeader, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiPage } from '../common/api-page';
import { pageLimit } from '../common/cursor';
import { ApiProblems } from '../common/api-problems';
import { IdempotencyInterceptor, SecretInResponse } from '../common/idempotency.interceptor';
import { FC_DEFAULTS } from '../../engine/evaluate/posum-score';
import { ApiKeyEntity } from './api-key.entity';
import { Roles } from './principal';
import { ScoreWeightsDto } from '../common/score-weights.dto';
import { CreatedKeyDto, CreateKeyDto, CreateTenantDto, KeyDto, RevenueShareDto, TenantDto, TenantPageDto } from './tenant.dto';
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
  @ApiOperation({
    operationId: 'createTenant',
    summary: 'Create a tenant: a farmer or customer organisation that holds keys and data',
    description: 'A tenant starts with no keys (createKey issues them), a revenue share of 0 and the default POSUM weights. Its data is visible to its own keys and to operators only.',
  })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'a retry with the same key returns the first response' })
  @ApiCreatedResponse({ type: TenantDto })
  @ApiProblems(401, 403, 409, 422)
  async create(@Body() dto: CreateTenantDto): Promise<TenantDto> {
    return toTenant(await this.tenants.create(dto.name));
  }

  @Get()
  @ApiOperation({
    operationId: 'listTenants',
    summary: 'Tenants, newest first',
    description: 'A page of tenants with their revenue share and POSUM weights, as every other listing pages: `{items, nextCursor}`, the next page from `?cursor=nextCursor`.',
  })
  @ApiPage('tenants')
  @ApiOkResponse({ type: TenantPageDto })
  @ApiProblems(401, 403, 422)
  async list(@Query('cursor') cursor?: string, @Query('limit') limit?: string): Promise<TenantPageDto> {
    const page = await this.tenants.list(pageLimit(limit), cursor);
    return { items: page.items.map(toTenant), nextCursor: page.nextCursor };
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getTenant', summary: 'One tenant', description: 'Its name, revenue share, POSUM weights and creation time.' })
  @ApiUuidPath('id', 'the tenant')
  @ApiOkResponse({ type: TenantDto })
  @ApiProblems(401, 403, 404)
  async get(@Param('id', UuidParam) id: string): Promise<TenantDto> {
    return toTenant(await this.tenants.get(id));
  }

  @Put(':id/revenue-share')
  @ApiOperation({
    operationId: 'setRevenueShare',
    summary: 'Set a farmer tenant\'s revenue share (basis points); accounting applies the current value',
    description: 'The share is not historised: farmer and operator accounting for any period use the value set last.',
  })
  @ApiUuidPath('id', 'the farmer tenant')
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
  @ApiUuidPath('id', 'the tenant')
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
  @ApiUuidPath('id', 'the tenant the key belongs to')
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'a retry with the same key answers 409 naming the key the first request issued (the key itself is never stored)' })
  @ApiCreatedResponse({ type: CreatedKeyDto })
  @ApiProblems(401, 403, 404, 409, 422)
  async createKey(@Param('id', UuidParam) id: string, @Body() dto: CreateKeyDto): Promise<CreatedKeyDto> {
    const { row, key } = await this.tenants.issueKey(id, dto.role, dto.label ?? '');
    return { ...toKey(row), key };
  }

  @Get(':id/keys')
  @ApiOperation({
    operationId: 'listKeys',
    summary: "A tenant's API keys, revoked ones included",
    description: 'Each key with its role, label, prefix (what is kept of it in clear) and revocation time; never the key itself.',
  })
  @ApiUuidPath('id', 'the tenant')
  @ApiOkResponse({ type: [KeyDto] })
  @ApiProblems(401, 403, 404)
  async listKeys(@Param('id', UuidParam) id: string): Promise<KeyDto[]> {
    return (await this.tenants.listKeys(id)).map(toKey);
  }

  @Delete(':id/keys/:keyId')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'revokeKey',
    summary: 'Revoke an API key: it is refused from then on',
    description: 'Revoking a key already revoked is fine (204); a key the tenant does not have is a 404. The key stays listed with its revokedAt.',
  })
  @ApiUuidPath('id', 'the tenant')
  @ApiUuidPath('keyId', 'the key (its id in listKeys)')
  @ApiNoContentResponse({ description: 'revoked' })
  @ApiProblems(401, 403, 404)
  async revokeKey(@Param('id', UuidParam) id: string, @Param('keyId', UuidParam) keyId: string): Promise<void> {
    await this.tenants.revokeKey(id, keyId);
  }
}
