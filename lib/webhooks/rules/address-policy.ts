import ipaddr from 'ipaddr.js';

/**
 * Where webhooks may be sent. A webhook URL is chosen by a tenant, and the POST leaves from
 * inside our network: without these rules a tenant could make us call the instance metadata
 * service (169.254.169.254), a VPC endpoint or anything else only we can reach (SSRF).
 *
 * 'strict' (in AWS): https only, and every address must be public unicast. 'local'
 * (LOCAL_STACK=true): also plain http to this machine, for receivers started next to `npm start`.
 * This module judges URLs and addresses; resolving names, and checking the address actually
 * connected to, is lib/webhooks/adapters/webhook-http.ts's.
 */
export type AddressMode = 'strict' | 'local';

/** Longer URLs are refused: nobody needs one, and it bounds what a subscription item holds. */
const MAX_URL_LENGTH = 2048;

/** Hosts that `local` mode accepts over plain http: this machine, by name or loopback address. */
const LOCAL_HTTP_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * IPv6 ranges refused whatever ipaddr.js's range() says of them, each because an IPv4 address
 * hides in it or because it is deprecated. Refusing the whole range is simpler than judging the
 * IPv4 address inside, and no webhook receiver has a reason to live in one:
 * - ::/96, IPv4-compatible (RFC 4291 deprecates it): ipaddr.js calls '::7f00:1' unicast, and reads
 *   '::127.0.0.1' as if it were IPv4-mapped, so neither notation is judged by its IPv4 part;
 * - 2002::/16, 6to4, and 2001::/32, Teredo: tunnels whose relays deliver to the IPv4 address they
 *   embed (6to4's anycast relays are deprecated by RFC 7526; Teredo is a client's tunnel, not a server's);
 * - 64:ff9b::/96 and 64:ff9b:1::/48, NAT64: a translator would connect to the IPv4 address inside.
 *   Only a resolver doing DNS64 hands these out, and our functions run outside any VPC; if they ever
 *   run in an IPv6-only subnet with DNS64, judge 64:ff9b::/96 by its IPv4 part as ::ffff:0:0/96 is;
 * - fec0::/10, site-local (RFC 3879 deprecates it).
 * ipaddr.js 2.5 puts all but the first outside 'unicast' already; the list keeps the policy from
 * depending on that.
 */
const REFUSED_IPV6_RANGES = ['::/96', '2002::/16', '2001::/32', '64:ff9b::/96', '64:ff9b:1::/48', 'fec0::/10'].map(
  (cidr) => ipaddr.IPv6.parseCIDR(cidr),
);

/**
 * Whether an address is one anybody on the internet could be: ipaddr.js's 'unicast', the range
 * of whatever is in none of its special ranges (private, loopback, link-local, CGNAT, multicast,
 * reserved, unspecified, broadcast, ULA, documentation, 6to4, Teredo, …), and in none of
 * REFUSED_IPV6_RANGES. An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is judged as the IPv4 address
 * it maps, which is where a connection to it goes.
 * Only the usual notations count as addresses (dotted quad, IPv6 text without a zone); anything
 * else is not public.
 */
export function isPublicAddress(ip: string): boolean {
  if (ipaddr.IPv4.isValidFourPartDecimal(ip)) return ipaddr.IPv4.parse(ip).range() === 'unicast';
  const address = parseIPv6(ip);
  if (!address) return false;
  if (address.isIPv4MappedAddress()) return address.toIPv4Address().range() === 'unicast';
  if (REFUSED_IPV6_RANGES.some((range) => address.match(range))) return false;
  return address.range() === 'unicast';
}

/**
 * An IPv6 address read as its 16 bytes. ipaddr.js alone reads '::a.b.c.d' as '::ffff:a.b.c.d',
 * so the text goes first through the URL parser (WHATWG), which reads it as the network will and
 * writes it back in hex only; it is also the parser that reads a webhook URL's host.
 */
function parseIPv6(ip: string): ipaddr.IPv6 | undefined {
  if (!ipaddr.IPv6.isValid(ip)) return undefined;
  try {
    return ipaddr.IPv6.parse(new URL(`http://[${ip}]/`).hostname.slice(1, -1));
  } catch {
    return undefined; // a zone (fe80::1%eth0), which the URL parser refuses
  }
}

/**
 * Whether a webhook URL is acceptable, from its text alone (names are resolved at subscription
 * time by resolveWebhookHost, and again at each connection). The reasons are sentences shown to
 * whoever registers the URL.
 */
export function checkWebhookUrl(
  raw: string,
  mode: AddressMode,
): { ok: true; url: URL } | { ok: false; reason: string } {
  const refuse = (reason: string) => ({ ok: false as const, reason });
  if (raw.length > MAX_URL_LENGTH) return refuse(`The URL is longer than ${MAX_URL_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('The URL is not an absolute URL.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return refuse('The URL must start with https://.');
  if (url.protocol === 'http:' && !(mode === 'local' && LOCAL_HTTP_HOSTS.has(url.hostname))) {
    return refuse(
      mode === 'local'
        ? 'Plain http is allowed only for localhost, 127.0.0.1 and [::1]; use https.'
        : 'The URL must start with https://.',
    );
  }
  if (url.username !== '' || url.password !== '') return refuse('The URL must not contain a user name or password.');
  // An empty fragment ('…/hook#') leaves url.hash empty, and a '#' is a fragment wherever it stands.
  if (url.hash !== '' || raw.includes('#')) return refuse('The URL must not have a fragment (#…).');
  if (mode === 'strict') {
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (ipaddr.isValid(host) && !isPublicAddress(host))
      return refuse('The URL points to a private, local or reserved address.');
    // 'localhost.' is the same name as 'localhost', and *.localhost is this machine too (RFC 6761).
    const name = host.toLowerCase().replace(/\.$/, '');
    if (name === 'localhost' || name.endsWith('.localhost'))
      return refuse('The URL points to this machine (localhost).');
  }
  return { ok: true, url };
}
