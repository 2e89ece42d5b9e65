import { createHash } from 'node:crypto';
import ipaddr from 'ipaddr.js';

/**
 * Who a public request comes from, for per-client limits: its source address, never stored
 * in clear. An IPv6 client is its /64 (one household or office gets a whole /64, and a client
 * may pick any address in it); an IPv4-mapped IPv6 address is its IPv4 address.
 */
export function clientNetwork(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return undefined;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${parsed.toNormalizedString().split(':').slice(0, 4).join(':')}::/64`;
}

/**
 * The address in a `CloudFront-Viewer-Address` header (`198.51.100.7:46532`,
 * `2001:db8::7:46532`): everything before the last colon, which holds the port.
 */
export function addressOfViewerHeader(value: string): string {
  const lastColon = value.lastIndexOf(':');
  return lastColon > 0 ? value.slice(0, lastColon) : value;
}

/**
 * The wider network a client is part of, for budgets of failures (docs/photos.md#limits-on-photo-lookups):
 * an IPv4 address's /24, an IPv6 address's /48 (a site's allocation). Whoever rents addresses
 * gets them in such blocks, so a guesser cannot multiply a per-network budget as cheaply as a
 * per-address one.
 */
export function clientSite(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return undefined;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return `${parsed.toString().split('.').slice(0, 3).join('.')}.0/24`;
  return `${parsed.toNormalizedString().split(':').slice(0, 3).join(':')}::/48`;
}

function hashedKey(network: string | undefined): string {
  return createHash('sha256')
    .update(network ?? 'unknown')
    .digest('base64url')
    .slice(0, 22);
}

/** The key a client is counted under: a hash of its network, so that counters hold no address. */
export function clientKey(address: string | undefined): string {
  return hashedKey(address === undefined ? undefined : clientNetwork(address.trim()));
}

/** The key a client's site (its /24 or /48) is counted under: a hash, like clientKey. */
export function clientSiteKey(address: string | undefined): string {
  return `site-${hashedKey(address === undefined ? undefined : clientSite(address.trim()))}`;
}

/**
 * The key a client's photo lookups naming one credential (an access code, a photo link, an email
 * address) are counted under: a hash of the client's network and the credential together, so
 * that colleagues behind one NAT address each have their own budget for their own code or link
 * (docs/photos.md#limits-on-photo-lookups). The counter holds neither.
 */
export function clientCredentialKey(address: string | undefined, credential: string): string {
  const network = address === undefined ? undefined : clientNetwork(address.trim());
  return `cred-${createHash('sha256')
    .update(`${network ?? 'unknown'}\n${credential}`)
    .digest('base64url')
    .slice(0, 22)}`;
}
