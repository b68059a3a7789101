import { Injectable } from '@nestjs/common';
import { ValidationError } from '../../engine/model/errors';
import { Quote, quote } from '../../engine/quote';
import type { JobSpec } from '../../engine/model/types';
import { Principal } from '../auth/principal';
import { invalid } from '../common/problem';
import { SolvesService } from '../solves/solves.service';
import { CreateQuoteDto, QuoteDto } from './quote.dto';

/**
 * Quotes (issue 37): what a batch (or one job) would get on a cluster now, planned around the committed plans
 * and within the customer's quota, without storing a plan or holding capacity.
 */
@Injectable()
export class QuotesService {
  constructor(private readonly solves: SolvesService) {}

  async quote(p: Principal, dto: CreateQuoteDto): Promise<QuoteDto> {
    const issues = [];
    if (dto.batchId && dto.jobs) issues.push({ path: 'jobs', message: 'give batchId or jobs, not both' });
    if (!dto.batchId && !dto.jobs) issues.push({ path: 'batchId', message: 'required unless jobs are given' });
    const startsAt = dto.startsAt === undefined ? new Date() : new Date(dto.startsAt);
    if (Number.isNaN(startsAt.getTime())) issues.push({ path: 'startsAt', message: `must be an ISO 8601 date-time, got ${JSON.stringify(dto.startsAt)}` });
    if (issues.length) throw invalid(issues);
    const built = await this.solves.quoteInstances(
      p,
      { clusterId: dto.clusterId, batchId: dto.batchId, forecastId: dto.forecastId, safetyMargin: dto.safetyMargin, jobs: dto.jobs as unknown as JobSpec[] | undefined },
      { startsAt, allowStaleForecast: false, noun: 'solve' },
    );
    let q: Quote;
    try {
      q = quote(built.instance, built.uncapped);
    } catch (e) {
      if (!(e instanceof ValidationError)) throw e;
      throw invalid(this.solves.quoteIssues(e.issues, dto.jobs !== undefined));
    }
    const { slotSeconds, slots } = built.instance.horizon;
    const at = (slot: number | null) => (slot === null ? null : new Date(built.windowStartsAt.getTime() + slot * slotSeconds * 1000).toISOString());
    const accepted = q.jobs.filter((j) => j.accepted).length;
    return {
      clusterId: built.clusterId,
      window: { startsAt: built.windowStartsAt.toISOString(), slotSeconds, slots },
      strategy: q.strategy,
      acceptedJobs: accepted,
      rejectedJobs: q.jobs.length - accepted,
      revenue: q.revenue,
      jobs: q.jobs.map((j) => ({ ...j, plannedEnd: at(j.endSlot) })),
      warnings: built.warning ? [built.warning] : [],
    };
  }
}
