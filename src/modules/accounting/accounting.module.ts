import { Module } from '@nestjs/common';
import { ChartRenderModule } from '../charts/chart-render.module';
import { AccountingController } from './accounting.controller';
import { AccountingRepository } from './accounting.repository';
import { AccountingService } from './accounting.service';

/**
 * The customer, farmer and operator reports. Accounting owns no entity (no forFeature): its repository
 * reads other modules' tables through the DataSource, read-only.
 */
@Module({
  imports: [ChartRenderModule],
  controllers: [AccountingController],
  providers: [AccountingRepository, AccountingService],
  exports: [AccountingService],
})
export class AccountingModule {}
