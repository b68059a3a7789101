import { createHash, createHmac, randomBytes } from 'node:crypto';

/** The start of every key Fallow generates (so a leaked one is recognisable in logs and by secret scanners). */
const GENERATED = 'flw_';

/** A new API key: a recognisable prefix and 192 random bits. Only its digest is ever stored. */
export function generateKey(): string {
  return `${GENERATED}${randomBytes(24).toString('base64url')}`;
}

/**
 * The stored digest of a key: HMAC-SHA256 under the deployment's key secret (FALLOW_KEY_SECRET), so a copy
 * of the database alone cannot test guesses of a chosen key (such as a bootstrap key) offline.
 */
export function hashKey(key: string, secret: string): string {
  return `${HMAC_TAG}${createHmac('sha256', secret).update(key).digest('hex')}`;
}

/** Digests stored before keys were HMACed (plain SHA-256, 64 hex characters): found once, then rewritten. */
export function legacyHashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

const HMAC_TAG = 'hmac-sha256:';

/**
 * What is kept in clear to tell keys apart in listings: 4 characters of a generated key's random part
 * (24 of its 192 bits). A chosen key (the bootstrap key) keeps none: it may be short enough that a few
 * characters are much of it.
 */
export function keyPrefix(key: string): string {
  return key.startsWith(GENERATED) && key.length >= GENERATED.length + 24 ? key.slice(0, GENERATED.length + 4) : '';
}

/** The key from `Authorization: Bearer <key>`, or from the password of HTTP basic auth (for browsers). */
export function keyFromAuthorization(header: string | undefined, allowBasic = false): string | undefined {
  if (!header) return undefined;
  const [scheme, value] = header.split(' ', 2);
  if (!value) return undefined;
  if (scheme.toLowerCase() === 'bearer') return value.trim();
  if (allowBasic && scheme.toLowerCase() === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon >= 0 ? decoded.slice(colon + 1) : undefined;
  }
  return undefined;
}
