/** A webhook receiver for the service tests: node:http on a loopback address, recording every request it gets. */
import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, IncomingHttpHeaders } from 'node:http';

export interface Received {
  headers: IncomingHttpHeaders;
  /** The raw body, as signed. */
  body: string;
}

export interface Receiver {
  /** http://<host>:<port>/hooks */
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/** Listens on `host`, port 0; `answer(n)` is the status of its n-th request (from 1): 200 unless told otherwise. */
export async function startReceiver(answer: (n: number) => number = () => 200, host = '127.0.0.1'): Promise<Receiver> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = answer(received.length);
      res.writeHead(status).end(status >= 300 ? 'try later' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://${host}:${port}/hooks`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * Checks a delivery as a receiver should, independently of the service's code: Fallow-Signature is
 * `t=<unix s>,v1=<hex HMAC-SHA256 of "<t>.<body>">` under `secret`, and `t` is within 5 minutes of now.
 */
export function assertSigned(r: Received, secret: string): void {
  const header = String(r.headers['fallow-signature']);
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  assert.ok(m, `a Fallow-Signature of the documented form: ${header}`);
  const t = Number(m[1]);
  assert.ok(Math.abs(Date.now() / 1000 - t) < 300, `a recent timestamp: ${t}`);
  const expected = createHmac('sha256', secret).update(`${t}.${r.body}`).digest();
  assert.ok(timingSafeEqual(Buffer.from(m[2], 'hex'), expected), 'the signature is the HMAC of "<t>.<body>" under the secret');
}
