/**
 * Issue 35: the limit on requests without a valid key counts per socket address; X-Forwarded-For counts
 * only from the proxies named in FALLOW_TRUSTED_PROXIES. Before, `trust proxy` was on: 200 bad-key requests
 * each forging another address were never limited, and 61 keyless requests forging a victim's address
 * locked the victim out (429 on its valid key). Loopback has many addresses: the tests connect from
 * 127.0.0.1 (the attacker, or the proxy) and 127.0.0.2 (the victim) to the API on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config';
import { Service, startService } from '../../harness/service';
import { startOfAFreshWindow } from '../support/rate-window';

const LIMIT = 5;

/** GET `path` from the local address `from`, with `headers`: the status. */
function get(svc: Service, path: string, from: string, headers: Record<string, string>): Promise<number> {
  const u = new URL(`${svc.baseUrl}${path}`);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path: u.pathname, localAddress: from, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

const forged = (i: number) => `198.51.${Math.floor(i / 250)}.${(i % 250) + 1}`;

describe('the failure limit counts per socket address unless proxies are trusted', () => {
  let svc: Service;
  let victimKey: string;
  before(async () => {
    svc = await startService({ authFailuresPerMinute: LIMIT });
    victimKey = (await svc.tenant('victim', ['customer'])).keys.customer;
    await startOfAFreshWindow();
  });
  after(() => svc?.close());

  it('limits 200 bad-key requests each forging another X-Forwarded-For after the limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 200; i++) statuses.push(await get(svc, '/v1/batches', '127.0.0.1', { authorization: `Bearer flw_guess_${i}`, 'x-forwarded-for': forged(i) }));
    assert.deepEqual(statuses.slice(0, LIMIT), Array(LIMIT).fill(401));
    assert.deepEqual(statuses.slice(LIMIT), Array(200 - LIMIT).fill(429));
  });

  it('does not lock out the address a forger names', async () => {
    for (let i = 0; i < LIMIT + 1; i++) await get(svc, '/v1/batches', '127.0.0.1', { 'x-forwarded-for': '127.0.0.2' });
    assert.equal(await get(svc, '/v1/batches', '127.0.0.2', { authorization: `Bearer ${victimKey}` }), 200);
    // Not even limited without a key: the forger's requests counted against the forger's own address.
    assert.equal(await get(svc, '/v1/batches', '127.0.0.2', {}), 401);
  });
});

describe('with FALLOW_TRUSTED_PROXIES', () => {
  let svc: Service;
  before(async () => {
    svc = await startService({ authFailuresPerMinute: LIMIT, trustedProxies: loadConfig({ FALLOW_TRUSTED_PROXIES: '127.0.0.1' }).trustedProxies });
    await startOfAFreshWindow();
  });
  after(() => svc?.close());

  it('counts failures per X-Forwarded-For address from a trusted proxy, and per socket address from anyone else', async () => {
    // Through the proxy (127.0.0.1): each client address has its own count.
    for (let i = 0; i < LIMIT; i++) assert.equal(await get(svc, '/v1/batches', '127.0.0.1', { 'x-forwarded-for': '203.0.113.9' }), 401);
    assert.equal(await get(svc, '/v1/batches', '127.0.0.1', { 'x-forwarded-for': '203.0.113.9' }), 429);
    assert.equal(await get(svc, '/v1/batches', '127.0.0.1', { 'x-forwarded-for': '203.0.113.10' }), 401);
    // A client's own forged entry before the proxy's is not believed: express takes the rightmost untrusted one.
    assert.equal(await get(svc, '/v1/batches', '127.0.0.1', { 'x-forwarded-for': '198.51.100.1, 203.0.113.9' }), 429);
    // Not from the proxy (127.0.0.2): the header is ignored and the socket address counts.
    const direct: number[] = [];
    for (let i = 0; i < LIMIT + 1; i++) direct.push(await get(svc, '/v1/batches', '127.0.0.2', { 'x-forwarded-for': forged(i) }));
    assert.deepEqual(direct, [...Array(LIMIT).fill(401), 429]);
  });
});

describe('FALLOW_TRUSTED_PROXIES', () => {
  it('takes addresses, CIDRs, netmasks and express\'s range names; none by default', () => {
    assert.deepEqual(loadConfig({}).trustedProxies, []);
    assert.deepEqual(loadConfig({ FALLOW_TRUSTED_PROXIES: ' 10.0.0.1, 10.1.0.0/16,192.168.0.0/255.255.0.0,fd00::/8 ,loopback,uniquelocal' }).trustedProxies, [
      '10.0.0.1',
      '10.1.0.0/16',
      '192.168.0.0/255.255.0.0',
      'fd00::/8',
      'loopback',
      'uniquelocal',
    ]);
  });

  it('refuses what would trust every client, and what is not an address, naming each', () => {
    assert.throws(() => loadConfig({ FALLOW_TRUSTED_PROXIES: 'true' }), /FALLOW_TRUSTED_PROXIES.*"true"/);
    assert.throws(() => loadConfig({ FALLOW_TRUSTED_PROXIES: '10.0.0.1,2,*,10.0.0.0/33' }), /not understood: "2", "\*", "10\.0\.0\.0\/33"/);
  });
});
