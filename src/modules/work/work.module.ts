import { Module } from '@nestjs/common';
import { LongWorkRepository } from './work.repository';
import { LongWorkService } from './work.service';

/** The long-work kernel: feature modules of long-running resources import it to enqueue and cancel. */
@Module({ providers: [LongWorkRepository, LongWorkService], exports: [LongWorkService, LongWorkRepository] })
export class WorkModule {}
