import { Module } from '@nestjs/common';
import { SolvesModule } from '../solves/solves.module';
import { QuotesController } from './quotes.controller';
import { QuotesService } from './quotes.service';

/** Quotes: plans made and answered at once, around committed plans and within quotas; nothing stored. */
@Module({
  imports: [SolvesModule],
  controllers: [QuotesController],
  providers: [QuotesService],
})
export class QuotesModule {}
