import type { Request, Response } from 'express';
import type { SolveEntity } from './solve.entity';
import { TERMINAL_STATUSES } from './solve.entity';
import { toSolveDto } from './solves.service';

/** How often a followed solve is read again, and the longest a follower waits without an event. */
const POLL_MS = 250;
const HEARTBEAT_MS = 1000;

/**
 * Streams a solve as text/event-stream (GET /v1/solves/{id}/events): a `solve` event (the SolveDto) at
 * once, at every change and at least once a second while it runs (its progress is a heartbeat), then an
 * `end` event once it has ended, and the stream closes. The row is polled: any API instance can serve a
 * follower, whichever worker runs the solve. A database error ends the stream with an `error` event.
 */
export async function streamSolve(req: Request, res: Response, first: SolveEntity, reload: () => Promise<SolveEntity>): Promise<void> {
  res.status(200);
  res.set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
  res.flushHeaders();
  let closed = false;
  req.on('close', () => (closed = true));
  const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  let solve = first;
  let last = '';
  let sentAt = 0;
  try {
    for (;;) {
      const dto = toSolveDto(solve);
      const state = JSON.stringify(dto);
      if (state !== last || Date.now() - sentAt >= HEARTBEAT_MS) {
        send('solve', dto);
        last = state;
        sentAt = Date.now();
      }
      if (TERMINAL_STATUSES.includes(solve.status) || closed) break;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      if (closed) break;
      solve = await reload();
    }
    if (!closed) send('end', { id: solve.id, status: solve.status, planId: solve.planId });
  } catch (e) {
    if (!closed) send('error', { title: 'the solve could not be read', detail: (e as Error).message });
  }
  res.end();
}
