import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, LookupFunction } from 'node:net';
import { withTimeout } from '../common/with-timeout';
import type { AllowList } from './allow-list';

/** What one attempt came to: the receiver's status, or why there was none. */
export interface PostOutcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  /** The address was not allowed: retrying cannot help. */
  refused: boolean;
  durationMs: number;
}

/** The most of a receiver's answer that is read (and a few characters of it kept in the log). */
const ANSWER_READ_BYTES = 4096;

/**
 * POSTs `body` to `url`, only ever connecting to an allowed address: a host name is resolved here and the
 * connection is pinned to the first resolved address the allow-list holds (the socket never resolves it
 * again, so a DNS answer that changes in between cannot redirect it). Redirects are not followed: a 3xx is a
 * failure like any other answer outside 2xx. The whole attempt (resolution, connection, answer) ends at `timeoutMs`.
 */
export async function postWebhook(url: string, headers: Record<string, string>, body: string, allow: AllowList, timeoutMs: number): Promise<PostOutcome> {
  const started = Date.now();
  const outcome = (o: Omit<PostOutcome, 'durationMs'>): PostOutcome => ({ ...o, durationMs: Date.now() - started });
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (!allow.hostAllowed(target.hostname)) return outcome({ ok: false, statusCode: null, error: `refused: the host ${host} is no longer allowed (FALLOW_WEBHOOK_ALLOW)`, refused: true });
  let address = host;
  if (!isIP(host)) {
    let resolved: { address: string; family: number }[];
    try {
      resolved = await withTimeout(lookup(host, { all: true }), timeoutMs, `no answer from DNS within ${timeoutMs} ms`);
    } catch (e) {
      return outcome({ ok: false, statusCode: null, error: `could not resolve ${host}: ${(e as Error).message}`, refused: false });
    }
    const allowed = resolved.find((r) => allow.addressAllowed(r.address));
    if (!allowed)
      return outcome({ ok: false, statusCode: null, error: `refused: ${host} resolves to ${resolved.map((r) => r.address).join(', ')}, none of which is allowed (FALLOW_WEBHOOK_ALLOW)`, refused: true });
    address = allowed.address;
  }
  const family = isIP(address);
  const pinned: LookupFunction = (_name, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<PostOutcome>((resolve) => {
    let settled = false;
    const finish = (o: Omit<PostOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome(o));
    };
    const req = client.request(
      target,
      { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup: pinned, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        let read = 0;
        res.on('data', (c: Buffer) => {
          if (read < ANSWER_READ_BYTES) chunks.push(c);
          read += c.length;
        });
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          const ok = status >= 200 && status < 300;
          const said = Buffer.concat(chunks).toString('utf8').slice(0, 200).replace(/\s+/g, ' ').trim();
          finish({ ok, statusCode: status, error: ok ? null : `the receiver answered ${status}${said ? `: ${said}` : ''}`, refused: false });
        });
        res.on('error', (e) => finish({ ok: false, statusCode: res.statusCode ?? null, error: `reading the answer: ${e.message}`, refused: false }));
      },
    );
    const timer = setTimeout(() => {
      finish({ ok: false, statusCode: null, error: `no answer within ${timeoutMs} ms`, refused: false });
      req.destroy();
    }, Math.max(0, started + timeoutMs - Date.now()));
    req.on('error', (e) => finish({ ok: false, statusCode: null, error: e.message, refused: false }));
    req.end(body);
  });
}
