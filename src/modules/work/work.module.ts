import { Module } from '@nestjs/common';
import { Reconciler } from './reconciler';
import { WorkEndings } from './work-endings';
import { LongWorkRepository } from './work.repository';
import { LongWorkService } from './work.service';

/** The long-work kernel: feature modules of long-running resources import it to enqueue and cancel, and to hear when their work ends (WorkEndings). */
@Module({ providers: [LongWorkRepository, LongWorkService, Reconciler, WorkEndings], exports: [LongWorkService, LongWorkRepository, Reconciler, WorkEndings] })
export class WorkModule {}
