import { Body, Controller, Delete, Get, HttpCode, Param, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, Roles } from '../auth/principal';
import { ApiProblems } from '../common/api-problems';
import { ApiUuidPath, UuidParam } from '../common/uuid-param';
import { PutQuotaDto, QuotaDto, QuotaListDto } from './quota.dto';
import { QuotasService } from './quotas.service';

const CUSTOMER = { name: 'customer', description: 'a customer tenant id, or default (every customer without a quota of its own)' };

/** Per-customer quotas on a cluster: its farmer or an operator sets them; a customer reads the one that applies to it. */
@ApiTags('quotas')
@ApiBearerAuth()
@Controller('v1/clusters/:id/quotas')
export class QuotasController {
  constructor(private readonly quotas: QuotasService) {}

  @Put(':customer')
  @Roles('farmer')
  @ApiOperation({
    operationId: 'putQuota',
    summary: "Set a customer's quota on the cluster (or the default): shares of lendable capacity and whether it may borrow",
    description:
      "Per metric, the share of the cluster's lendable capacity (capacity less the regular load and the safety margin) the customer may hold " +
      'at once. Its solves plan within it and its commits past it are refused (409 naming the quota), unless it may borrow: then it goes beyond ' +
      'while capacity is idle, and a customer within its own quota takes the borrowed capacity back (README, Quotas).',
  })
  @ApiUuidPath('id', 'the cluster')
  @ApiParam(CUSTOMER)
  @ApiOkResponse({ type: QuotaDto })
  @ApiProblems(400, 401, 403, 404, 422)
  async put(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string, @Param('customer') customer: string, @Body() dto: PutQuotaDto): Promise<QuotaDto> {
    return this.quotas.put(p, id, customer, dto);
  }

  @Get()
  @Roles('farmer')
  @ApiOperation({ operationId: 'listQuotas', summary: "The cluster's quotas: each customer's own and the default", description: 'Every quota set on the cluster; customers without one have the default row (customer "default"), or no limit when there is none.' })
  @ApiUuidPath('id', 'the cluster')
  @ApiOkResponse({ type: QuotaListDto })
  @ApiProblems(400, 401, 403, 404)
  async list(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string): Promise<QuotaListDto> {
    return { items: await this.quotas.list(p, id) };
  }

  @Get(':customer')
  @Roles('farmer', 'customer')
  @ApiOperation({
    operationId: 'getQuota',
    summary: 'The quota that applies to a customer (its own, else the default, else none); a customer may ask about itself',
    description: "source says where it comes from; a customer asking about another customer, or about a cluster that is not lendable, gets a 404.",
  })
  @ApiUuidPath('id', 'the cluster')
  @ApiParam(CUSTOMER)
  @ApiOkResponse({ type: QuotaDto })
  @ApiProblems(400, 401, 403, 404, 422)
  async get(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string, @Param('customer') customer: string): Promise<QuotaDto> {
    return this.quotas.applying(p, id, customer);
  }

  @Delete(':customer')
  @HttpCode(204)
  @Roles('farmer')
  @ApiOperation({ operationId: 'deleteQuota', summary: "Remove a customer's quota (it then has the default) or the default", description: 'Plans already committed keep what they hold; later solves and commits use what applies now.' })
  @ApiUuidPath('id', 'the cluster')
  @ApiParam(CUSTOMER)
  @ApiNoContentResponse()
  @ApiProblems(400, 401, 403, 404)
  async remove(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string, @Param('customer') customer: string): Promise<void> {
    await this.quotas.remove(p, id, customer);
  }
}
