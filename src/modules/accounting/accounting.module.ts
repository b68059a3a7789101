import { Module } from '@nestjs/common';
import { AccountingController } from './accounting.controller';
import { AccountingRepository } from './accounting.repository';
import { AccountingService } from './accounting.service';

/**
 * The customer, farmer and operator reports. Accounting owns no entity (no forFeature): its repository
 * reads other modules' tables through the DataSource, read-only.
 */
@Module({
  controllers: [AccountingController],
  providers: [AccountingRepository, AccountingService],
  exports: [AccountingService],
})
export class AccountingModule {}
