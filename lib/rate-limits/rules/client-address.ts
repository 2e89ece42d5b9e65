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

/** The key a client is counted under: a hash of its network, so that counters hold no address. */
export function clientKey(address: string | undefined): string {
  const network = address === undefined ? undefined : clientNetwork(address.trim());
  return createHash('sha256')
    .update(network ?? 'unknown')
    .digest('base64url')
    .slice(0, 22);
}
