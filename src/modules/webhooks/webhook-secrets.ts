import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/** The start of every secret Fallow generates (recognisable in a receiver's configuration and by secret scanners). */
const GENERATED = 'whsec_';
/** What a caller's own secret must be: long enough to resist guessing, and plain enough for any header or env file. */
export const CALLER_SECRET = { min: 24, max: 200, pattern: /^[\x21-\x7e]+$/ };

/** A new subscription secret: 256 random bits. */
export function generateSecret(): string {
  return `${GENERATED}${randomBytes(32).toString('base64url')}`;
}

/**
 * Subscription secrets at rest: AES-256-GCM under a key derived from FALLOW_WEBHOOK_KEY, bound to the
 * subscription's id (the associated data), so a copy of the database alone reveals none and a sealed secret moved
 * to another row does not open. The receiver needs the secret itself to check signatures, so it cannot be a digest.
 * Sealed form: `v1.<iv>.<ciphertext>.<tag>`, base64url.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(keyMaterial: string) {
    this.key = Buffer.from(hkdfSync('sha256', keyMaterial, '', 'fallow webhook secrets v1', 32));
  }

  seal(secret: string, subscriptionId: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(subscriptionId));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return ['v1', iv, ciphertext, cipher.getAuthTag()].map((x) => (typeof x === 'string' ? x : x.toString('base64url'))).join('.');
  }

  /** Throws when the sealed secret was made under another key or for another subscription. */
  open(sealed: string, subscriptionId: string): string {
    const [version, iv, ciphertext, tag] = sealed.split('.');
    if (version !== 'v1' || !iv || !ciphertext || !tag) throw new Error('not a sealed webhook secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(subscriptionId));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/**
 * The `Fallow-Signature` header of a delivery (Stripe's scheme): `t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<body>" under the subscription's secret>`. The receiver recomputes it over the raw body, compares in
 * constant time and refuses a `t` too far from its clock, so a captured delivery cannot be replayed later.
 */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  return `t=${unixSeconds},v1=${createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex')}`;
}
