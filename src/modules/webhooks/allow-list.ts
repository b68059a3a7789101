import { BlockList, isIP } from 'node:net';
import type { Issue } from '../../engine/model/types';

/**
 * The addresses webhook deliveries may go to (FALLOW_WEBHOOK_ALLOW): host names, addresses and CIDRs. A URL's
 * host must be listed (a name by name, an address literal by a listed address or CIDR); at delivery a name is
 * resolved and only a resolved address that is itself listed is connected to, so DNS cannot send a delivery
 * anywhere the operator did not allow.
 */
export class AllowList {
  private readonly names = new Set<string>();
  private readonly addresses = new BlockList();
  readonly empty: boolean;

  constructor(entries: string[]) {
    for (const e of entries) {
      const [address, bits] = e.split('/');
      const family = isIP(address);
      if (!family) this.names.add(e.toLowerCase());
      else if (bits === undefined) this.addresses.addAddress(address, family === 4 ? 'ipv4' : 'ipv6');
      else this.addresses.addSubnet(address, Number(bits), family === 4 ? 'ipv4' : 'ipv6');
    }
    this.empty = entries.length === 0;
  }

  /** A URL's host (as URL.hostname gives it, IPv6 in brackets) may be subscribed to. */
  hostAllowed(hostname: string): boolean {
    const host = bare(hostname);
    return isIP(host) ? this.addressAllowed(host) : this.names.has(host.toLowerCase().replace(/\.$/, ''));
  }

  /** An address may be connected to (an IPv4-mapped IPv6 address is judged as the IPv4 address it is). */
  addressAllowed(address: string): boolean {
    const a = unmapped(bare(address));
    const family = isIP(a);
    return family !== 0 && this.addresses.check(a, family === 4 ? 'ipv4' : 'ipv6');
  }
}

/** The URL's problems as a subscription's `url` (all at once), or its normalised form. */
export function checkUrl(raw: unknown, allow: AllowList): { url: string } | { issues: Issue[] } {
  const issue = (message: string) => ({ issues: [{ path: 'url', message }] });
  if (typeof raw !== 'string') return issue('must be an http or https URL (a string)');
  if (raw.length > MAX_URL) return issue(`must be at most ${MAX_URL} characters`);
  // The parser would drop or escape control characters silently: a URL that holds one is a mistake, say so.
  if (/[\u0000-\u001f\u007f]/.test(raw)) return issue('must not contain control characters');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return issue(`must be an absolute http or https URL, got ${JSON.stringify(raw.slice(0, 100))}`);
  }
  const problems: string[] = [];
  if (url.protocol !== 'http:' && url.protocol !== 'https:') problems.push(`must use http or https, not ${url.protocol.slice(0, -1)}`);
  if (url.username || url.password) problems.push('must not carry a user name or password (the signature authenticates Fallow to the receiver)');
  if (url.hash) problems.push('must not have a #fragment (it is never sent)');
  if (!problems.length && !allow.hostAllowed(url.hostname))
    problems.push(
      allow.empty
        ? 'webhooks may not be delivered anywhere on this deployment: the operator allows no address (FALLOW_WEBHOOK_ALLOW is empty)'
        : `the host ${url.hostname} is not one the operator allows deliveries to (FALLOW_WEBHOOK_ALLOW)`,
    );
  return problems.length ? { issues: problems.map((message) => ({ path: 'url', message })) } : { url: url.href };
}

const MAX_URL = 2000;

/** An IPv6 address without the brackets a URL puts around it. */
function bare(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** ::ffff:7f00:1 and ::ffff:127.0.0.1 are 127.0.0.1 (a socket connects to that IPv4 address). */
function unmapped(address: string): string {
  const m = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!m) return address;
  if (m[1]) return m[1];
  const hi = parseInt(m[2], 16);
  const lo = parseInt(m[3], 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}
