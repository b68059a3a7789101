import { Injectable, Logger } from '@nestjs/common';

/**
 * What happened on a cluster that may make its running plans wrong (issue 39): a node lost, tasks killed,
 * usage posted (the forecast may have missed). The modules that record these (cluster events, executions,
 * usage) emit them; the re-planning module listens. It is a seam, not a queue: the modules that emit sit
 * below the solves and plans that a re-plan needs, so they cannot call the re-planning module without a cycle.
 */
export type ClusterSignal =
  | { kind: 'node-lost'; clusterId: string; eventId: string; node: string; fromMs: number; untilMs: number | null }
  | { kind: 'tasks-killed'; kills: KilledTask[] }
  | { kind: 'usage-posted'; clusterId: string; fromMs: number; toMs: number };

/** A task an execution event reported killed. */
export interface KilledTask {
  solveId: string;
  job: string;
  stage: string;
  task: number;
  node: string;
  atMs: number;
}

export type ClusterSignalListener = (signal: ClusterSignal) => Promise<void>;

/**
 * One per process. `emit` runs every listener in turn and waits for them, so when the request that recorded
 * the change answers, what it set off is done (or recorded as failed); a listener's failure is logged and
 * never fails that request, whose change is already stored.
 */
@Injectable()
export class ClusterSignals {
  private readonly log = new Logger('cluster-signals');
  private readonly listeners: ClusterSignalListener[] = [];

  on(listener: ClusterSignalListener): void {
    this.listeners.push(listener);
  }

  async emit(signal: ClusterSignal): Promise<void> {
    for (const listener of this.listeners) {
      try {
        await listener(signal);
      } catch (e) {
        this.log.error(`a listener of ${signal.kind} failed: ${(e as Error).stack ?? String(e)}`);
      }
    }
  }
}
