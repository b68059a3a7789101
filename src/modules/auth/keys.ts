import { createHash, randomBytes } from 'node:crypto';

/** A new API key: a recognisable prefix and 192 random bits. Only its digest is ever stored. */
export function generateKey(): string {
  return `flw_${randomBytes(24).toString('base64url')}`;
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function keyPrefix(key: string): string {
  return key.slice(0, 8);
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
