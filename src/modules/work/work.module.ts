import { Module } from '@nestjs/common';
import { Reconciler } from './reconciler';
import { LongWorkRepository } from './work.repository';
import { LongWorkService } from './work.service';

/** The long-work kernel: feature modules of long-running resources import it to enqueue and cancel. */
@Module({ providers: [LongWorkRepository, LongWorkService, Reconciler], exports: [LongWorkService, LongWorkRepository, Reconciler] })
export class WorkModule {}
