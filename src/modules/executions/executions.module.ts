import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ExecutionEventEntity } from './execution-event.entity';
import { ExecutionsController } from './executions.controller';
import { ExecutionsRepository } from './executions.repository';
import { ExecutionsService } from './executions.service';

/** Execution events reported against solves, and each solve's execution report. */
@Module({
  imports: [TypeOrmModule.forFeature([ExecutionEventEntity])],
  controllers: [ExecutionsController],
  providers: [ExecutionsRepository, ExecutionsService],
  exports: [ExecutionsService],
})
export class ExecutionsModule {}
