import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, Roles } from '../auth/principal';
import { ApiProblems } from '../common/api-problems';
import { CreateQuoteDto, QuoteDto } from './quote.dto';
import { QuotesService } from './quotes.service';

/** "If I add this batch (or this one job) to this cluster now, what do I get": answered at once, nothing stored or held. */
@ApiTags('quotes')
@ApiBearerAuth()
@Controller('v1/quotes')
export class QuotesController {
  constructor(private readonly quotes: QuotesService) {}

  @Post()
  @HttpCode(200)
  @Roles('customer')
  @ApiOperation({
    operationId: 'createQuote',
    summary: 'What a batch or a job would get on a cluster now: jobs accepted, planned ends, revenue, and why the others do not fit',
    description:
      'Plans the jobs (a batch of yours, or jobs given inline) as a solve would, around every committed plan and within your quota, with ' +
      "a fast greedy strategy, and answers at once without storing a plan or holding capacity (a solve may do better; commit a solve's plan " +
      'to hold capacity). Each job that does not fit says why: capacity, deadline or quota.',
  })
  @ApiOkResponse({ type: QuoteDto })
  @ApiProblems(400, 401, 403, 404, 422, 429)
  quote(@CurrentPrincipal() p: Principal, @Body() dto: CreateQuoteDto): Promise<QuoteDto> {
    return this.quotes.quote(p, dto);
  }
}
