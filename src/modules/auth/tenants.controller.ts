import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post, Put, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { InjectRepository } from '@nestjs/typeorm';
import { IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { IsNull, Repository } from 'typeorm';
import { conflict, notFound } from '../common/problem';
import { ApiProblems } from '../common/api-problems';
import { IdempotencyInterceptor } from '../common/idempotency.interceptor';
import { ApiKeyEntity, Role, ROLES } from './api-key.entity';
import { AuthService } from './auth.service';
import { Roles } from './principal';
import { TenantEntity } from './tenant.entity';

export class CreateTenantDto {
  @ApiProperty({ example: 'acme', description: 'unique; letters, digits, dot, dash, underscore' })
  @IsString()
  @Length(1, 100)
  @Matches(/^[A-Za-z0-9._-]+$/, { message: 'name may contain only letters, digits, ".", "-" and "_"' })
  name!: string;
}

export class TenantDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ minimum: 0, maximum: 10000, description: 'a farmer\'s share of the positive revenue of jobs on its clusters, in basis points' }) revenueShareBps!: number;
  @ApiProperty() createdAt!: string;
}

export class RevenueShareDto {
  @ApiProperty({
    minimum: 0,
    maximum: 10000,
    example: 3000,
    description: 'basis points (3000 = 30 %) of the positive revenue of each job run on the farmer\'s clusters, rounded down per job to a minor unit; penalties stay with the operator',
  })
  @IsInt({ message: '$property must be an integer number of basis points' })
  @Min(0, { message: '$property must be at least 0' })
  @Max(10000, { message: '$property must be at most 10000 (100 %)' })
  shareBps!: number;
}

export class CreateKeyDto {
  @ApiProperty({ enum: ROLES }) @IsIn(ROLES as unknown as string[]) role!: Role;
  @ApiPropertyOptional({ example: 'ci pipeline' }) @IsOptional() @IsString() @Length(0, 200) label?: string;
}

export class KeyDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) tenantId!: string;
  @ApiProperty({ enum: ROLES }) role!: Role;
  @ApiProperty() label!: string;
  @ApiProperty({ description: 'first characters of the key' }) prefix!: string;
  @ApiProperty() createdAt!: string;
  @ApiPropertyOptional({ type: String, nullable: true }) revokedAt!: string | null;
}

export class CreatedKeyDto extends KeyDto {
  @ApiProperty({ description: 'the key itself: shown this once, only its digest is stored' }) key!: string;
}

const toTenant = (t: TenantEntity): TenantDto => ({ id: t.id, name: t.name, revenueShareBps: t.revenueShareBps, createdAt: t.createdAt.toISOString() });
const toKey = (k: ApiKeyEntity): KeyDto => ({ id: k.id, tenantId: k.tenantId, role: k.role, label: k.label, prefix: k.prefix, createdAt: k.createdAt.toISOString(), revokedAt: k.revokedAt?.toISOString() ?? null });

/** Operators manage tenants and their keys. */
@ApiTags('tenants')
@ApiBearerAuth()
@Roles('operator')
@Controller('v1/tenants')
export class TenantsController {
  constructor(
    private readonly auth: AuthService,
    @InjectRepository(TenantEntity) private readonly tenants: Repository<TenantEntity>,
    @InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>,
  ) {}

  @Post()
  @HttpCode(201)
  @UseInterceptors(IdempotencyInterceptor)
  @ApiOperation({ operationId: 'createTenant' })
  @ApiCreatedResponse({ type: TenantDto })
  @ApiProblems(401, 403, 409, 422)
  async create(@Body() dto: CreateTenantDto): Promise<TenantDto> {
    if (await this.tenants.existsBy({ name: dto.name })) throw conflict(`a tenant named "${dto.name}" exists`);
    return toTenant(await this.tenants.save(this.tenants.create({ name: dto.name })));
  }

  @Get()
  @ApiOperation({ operationId: 'listTenants' })
  @ApiOkResponse({ type: [TenantDto] })
  @ApiProblems(401, 403)
  async list(): Promise<TenantDto[]> {
    return (await this.tenants.find({ order: { createdAt: 'ASC' } })).map(toTenant);
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getTenant' })
  @ApiOkResponse({ type: TenantDto })
  @ApiProblems(401, 403, 404)
  async get(@Param('id', new ParseUUIDPipe()) id: string): Promise<TenantDto> {
    return toTenant(await this.find(id));
  }

  @Put(':id/revenue-share')
  @ApiOperation({ operationId: 'setRevenueShare', summary: 'Set a farmer tenant\'s revenue share (basis points); accounting applies the current value' })
  @ApiOkResponse({ type: TenantDto })
  @ApiProblems(401, 403, 404, 422)
  async setRevenueShare(@Param('id', new ParseUUIDPipe()) id: string, @Body() dto: RevenueShareDto): Promise<TenantDto> {
    const tenant = await this.find(id);
    tenant.revenueShareBps = dto.shareBps;
    return toTenant(await this.tenants.save(tenant));
  }

  @Post(':id/keys')
  @HttpCode(201)
  @UseInterceptors(IdempotencyInterceptor)
  @ApiOperation({ operationId: 'createKey', summary: 'Issue an API key with one role; the key is in this response only' })
  @ApiCreatedResponse({ type: CreatedKeyDto })
  @ApiProblems(401, 403, 404, 422)
  async createKey(@Param('id', new ParseUUIDPipe()) id: string, @Body() dto: CreateKeyDto): Promise<CreatedKeyDto> {
    await this.find(id);
    const { row, key } = await this.auth.issueKey(id, dto.role, dto.label ?? '');
    return { ...toKey(row), key };
  }

  @Get(':id/keys')
  @ApiOperation({ operationId: 'listKeys' })
  @ApiOkResponse({ type: [KeyDto] })
  @ApiProblems(401, 403, 404)
  async listKeys(@Param('id', new ParseUUIDPipe()) id: string): Promise<KeyDto[]> {
    await this.find(id);
    return (await this.keys.find({ where: { tenantId: id }, order: { createdAt: 'ASC' } })).map(toKey);
  }

  @Delete(':id/keys/:keyId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'revokeKey' })
  @ApiNoContentResponse({ description: 'revoked' })
  @ApiProblems(401, 403, 404)
  async revokeKey(@Param('id', new ParseUUIDPipe()) id: string, @Param('keyId', new ParseUUIDPipe()) keyId: string): Promise<void> {
    const r = await this.keys.update({ id: keyId, tenantId: id, revokedAt: IsNull() }, { revokedAt: new Date() });
    if (!r.affected && !(await this.keys.existsBy({ id: keyId, tenantId: id }))) throw notFound('key', keyId);
  }

  private async find(id: string): Promise<TenantEntity> {
    const t = await this.tenants.findOneBy({ id });
    if (!t) throw notFound('tenant', id);
    return t;
  }
}
