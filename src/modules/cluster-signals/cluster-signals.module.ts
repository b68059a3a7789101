import { Module } from '@nestjs/common';
import { ClusterSignals } from './cluster-signals';

/** The seam between what records changes of a cluster (events, executions, usage) and what reacts to them (re-planning). */
@Module({
  providers: [ClusterSignals],
  exports: [ClusterSignals],
})
export class ClusterSignalsModule {}
