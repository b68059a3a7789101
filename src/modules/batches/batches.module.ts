import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyModule } from '../common/idempotency.module';
import { ExecutionsModule } from '../executions/executions.module';
import { BatchEntity } from './batch.entity';
import { BatchesController } from './batches.controller';
import { BatchesRepository } from './batches.repository';
import { BatchesService } from './batches.service';

/** A customer's job batches; solves read them through BatchesService.findOwned. */
@Module({
  imports: [TypeOrmModule.forFeature([BatchEntity]), IdempotencyModule, ExecutionsModule],
  controllers: [BatchesController],
  providers: [BatchesRepository, BatchesService],
  exports: [BatchesService],
})
export class BatchesModule {}
