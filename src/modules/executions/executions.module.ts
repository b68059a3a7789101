import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClusterSignalsModule } from '../cluster-signals/cluster-signals.module';
import { ExecutionEventEntity } from './execution-event.entity';
import { ExecutionsController } from './executions.controller';
import { ExecutionsRepository } from './executions.repository';
import { ExecutionsService } from './executions.service';
import { RuntimeHistoryService } from './runtime-history.service';
import { StageHistoryEntity } from './stage-history.entity';

/** Execution events reported against solves, each solve's execution report, and the runtime history learned from them. */
@Module({
  imports: [TypeOrmModule.forFeature([ExecutionEventEntity, StageHistoryEntity]), ClusterSignalsModule],
  controllers: [ExecutionsController],
  providers: [ExecutionsRepository, ExecutionsService, RuntimeHistoryService],
  exports: [ExecutionsService, RuntimeHistoryService],
})
export class ExecutionsModule {}
