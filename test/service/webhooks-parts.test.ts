/**
 * The parts of webhooks that need no service: the allow-list (names, addresses, CIDRs, and the other spellings of an
 * address a URL or a resolver may give), the URL check's problems, the sealed secrets, and the configuration's
 * refusals (bad entries, short keys, production without a key once deliveries are allowed).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config';
import { AllowList, checkUrl } from '../../src/modules/webhooks/allow-list';
import { secretBoxOf } from '../../src/modules/webhooks/webhook-keys';
import { generateSecret, SecretBox } from '../../src/modules/webhooks/webhook-secrets';

const ID = '6f1c2a9e-0d3b-4c55-9a7e-2b8f0c1d3e4f';
const OTHER_ID = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const KEY = 'k'.repeat(32);

describe('the webhook allow-list', () => {
  const allow = new AllowList(['hooks.example.com', '127.0.0.0/8', '::1', '192.0.2.7']);

  it('allows listed names (any case, a trailing dot), addresses and CIDR members, nothing else', () => {
    for (const host of ['hooks.example.com', 'HOOKS.example.com', 'hooks.example.com.', '127.0.0.1', '127.255.0.9', '[::1]', '192.0.2.7']) assert.ok(allow.hostAllowed(host), host);
    for (const host of ['example.com', 'evil.hooks.example.com', 'hooks.example.com.evil', '128.0.0.1', '192.0.2.8', '[::2]', '10.0.0.1', 'localhost']) assert.equal(allow.hostAllowed(host), false, host);
  });

  it('judges an IPv4-mapped IPv6 address as the IPv4 address it connects to', () => {
    assert.ok(allow.addressAllowed('::ffff:127.0.0.1'));
    assert.ok(allow.addressAllowed('::ffff:7f00:1'));
    assert.equal(allow.addressAllowed('::ffff:a00:1'), false); // 10.0.0.1
    assert.equal(allow.hostAllowed('[::ffff:a00:1]'), false);
  });

  it('sees through the spellings of an address a URL allows (decimal, short, hexadecimal IPv4)', () => {
    for (const url of ['http://2130706433/x', 'http://127.1/x', 'http://0x7f.0.0.1/x', 'http://[::ffff:127.0.0.1]/x']) assert.ok('url' in checkUrl(url, allow), url);
    for (const url of ['http://167772161/x', 'http://10.1/x', 'http://0xa.0.0.1/x']) assert.ok('issues' in checkUrl(url, allow), url); // 10.0.0.1, 10.0.0.1, 10.0.0.1
  });

  it('names every problem of a URL at once, and says when nothing is allowed at all', () => {
    const r = checkUrl('ftp://me:pw@127.0.0.1/x#top', allow);
    assert.ok('issues' in r);
    assert.deepEqual(r.issues.map((i) => i.message.split(' ').slice(0, 3).join(' ')), ['must use http', 'must not carry', 'must not have']);
    for (const bad of [42, 'not a url', 'http://127.0.0.1/\u0007', `http://127.0.0.1/${'x'.repeat(2000)}`]) assert.ok('issues' in checkUrl(bad, allow), String(bad).slice(0, 30));
    const none = checkUrl('https://hooks.example.com/x', new AllowList([]));
    assert.ok('issues' in none && /allows no address/.test(none.issues[0].message));
    assert.deepEqual(checkUrl('HTTPS://Hooks.Example.com/a?b=c', allow), { url: 'https://hooks.example.com/a?b=c' });
  });
});

describe('sealed webhook secrets', () => {
  it('open with the same key for the same subscription only, and show nothing of the secret', () => {
    const box = new SecretBox(KEY);
    const secret = generateSecret();
    const sealed = box.seal(secret, ID);
    assert.notEqual(box.seal(secret, ID), sealed, 'a fresh nonce each time');
    assert.ok(!sealed.includes(secret.slice(6)) && !sealed.includes(Buffer.from(secret).toString('base64url')));
    assert.equal(box.open(sealed, ID), secret);
    assert.throws(() => box.open(sealed, OTHER_ID));
    assert.throws(() => new SecretBox('m'.repeat(32)).open(sealed, ID));
    // Flip a bit of the decoded ciphertext: the last base64url character of an odd-length text carries unused
    // bits, so editing the text itself may leave the bytes as they were (a test that passed by luck 3 times in 4).
    const [v, iv, ct, tag] = sealed.split('.');
    const bytes = Buffer.from(ct, 'base64url');
    for (const at of [0, bytes.length - 1]) {
      const tampered = Buffer.from(bytes);
      tampered[at] ^= 1;
      assert.throws(() => box.open([v, iv, tampered.toString('base64url'), tag].join('.'), ID), `byte ${at} flipped`);
    }
  });
});

describe('webhook configuration', () => {
  it('allows this machine by default in development, nothing in production, and refuses entries it cannot read', () => {
    assert.deepEqual(loadConfig({}).webhookAllow, ['127.0.0.1', '::1', 'localhost']);
    assert.deepEqual(loadConfig({ NODE_ENV: 'production' }).webhookAllow, []);
    assert.deepEqual(loadConfig({ FALLOW_WEBHOOK_ALLOW: ' Hooks.Example.com , 10.1.0.0/16,::1 ' }).webhookAllow, ['hooks.example.com', '10.1.0.0/16', '::1']);
    assert.throws(() => loadConfig({ FALLOW_WEBHOOK_ALLOW: 'http://x.com,10.0.0.0/33,*' }), /not understood: "http:\/\/x\.com", "10\.0\.0\.0\/33", "\*"/);
    assert.throws(() => loadConfig({ FALLOW_WEBHOOK_KEY: 'short' }), /FALLOW_WEBHOOK_KEY: at least 32 characters/);
  });

  it('needs FALLOW_WEBHOOK_KEY in production once deliveries are allowed', () => {
    assert.throws(() => secretBoxOf(loadConfig({ NODE_ENV: 'production', FALLOW_WEBHOOK_ALLOW: 'hooks.example.com' })), /FALLOW_WEBHOOK_KEY is required in production/);
    assert.ok(secretBoxOf(loadConfig({ NODE_ENV: 'production' })));
    const keyed = secretBoxOf(loadConfig({ NODE_ENV: 'production', FALLOW_WEBHOOK_ALLOW: 'hooks.example.com', FALLOW_WEBHOOK_KEY: KEY }));
    assert.equal(new SecretBox(KEY).open(keyed.seal('s', ID), ID), 's');
  });
});
