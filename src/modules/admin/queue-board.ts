import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { Queue } from 'bullmq';
import type { NextFunction, Request, Response, Router } from 'express';
import { AuthService } from '../auth/auth.service';
import { keyFromAuthorization } from '../auth/keys';
import { problemBody } from '../common/problem.filter';

export const QUEUE_BOARD_PATH = '/admin/queues';

/**
 * Bull Board for operators. It is plain Express, outside Nest's guards, so it checks the key itself:
 * `Authorization: Bearer <operator key>`, or the key as the password of HTTP basic auth for browsers.
 */
export function queueBoard(queues: Queue[], auth: AuthService): { guard: (req: Request, res: Response, next: NextFunction) => void; router: Router } {
  const adapter = new ExpressAdapter();
  adapter.setBasePath(QUEUE_BOARD_PATH);
  createBullBoard({ queues: queues.map((q) => new BullMQAdapter(q)), serverAdapter: adapter });
  const guard = (req: Request, res: Response, next: NextFunction) => {
    const key = keyFromAuthorization(req.headers.authorization, true);
    const deny = () =>
      res
        .status(401)
        .set('WWW-Authenticate', 'Basic realm="Fallow queues", charset="UTF-8"')
        .type('application/problem+json')
        .send(JSON.stringify(problemBody(401, 'Unauthorized', 'the queue dashboard needs an operator key (Bearer, or as the basic-auth password)')));
    if (!key) return deny();
    auth.resolve(key).then((p) => (p?.role === 'operator' ? next() : deny()), next);
  };
  return { guard, router: adapter.getRouter() as Router };
}
