import { Module } from '@nestjs/common';
import { ChartRenderer } from './chart-renderer';

/** The API's chart threads, one set per process: the plan and simulation charts and the accounting reports' share it. */
@Module({ providers: [ChartRenderer], exports: [ChartRenderer] })
export class ChartRenderModule {}
