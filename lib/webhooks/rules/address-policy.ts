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
 * Whether an address is one anybody on the internet could be: ipaddr.js's 'unicast', the range
 * of whatever is in none of its special ranges (private, loopback, link-local, CGNAT, multicast,
 * reserved, unspecified, broadcast, ULA, documentation, 6to4, Teredo, …). An IPv4-mapped IPv6
 * address is judged as the IPv4 address it maps, which is where a connection to it goes.
 * Only the usual notations count as addresses (dotted quad, IPv6 text); anything else is not public.
 */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.IPv4.isValidFourPartDecimal(ip) && !ipaddr.IPv6.isValid(ip)) return false;
  return ipaddr.process(ip).range() === 'unicast';
}

/**
 * Whether a webhook URL is acceptable, from its text alone (names are resolved at subscription
 * time by resolveWebhookHost, and again at each connection). The reasons are sentences shown to
 * whoever registers the URL.
 */
export function checkWebhookUrl(raw: string, mode: AddressMode): { ok: true; url: URL } | { ok: false; reason: string } {
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
    return refuse(mode === 'local' ? 'Plain http is allowed only for localhost, 127.0.0.1 and [::1]; use https.' : 'The URL must start with https://.');
  }
  if (url.username !== '' || url.password !== '') return refuse('The URL must not contain a user name or password.');
  // An empty fragment ('…/hook#') leaves url.hash empty, and a '#' is a fragment wherever it stands.
  if (url.hash !== '' || raw.includes('#')) return refuse('The URL must not have a fragment (#…).');
  if (mode === 'strict') {
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (ipaddr.isValid(host) && !isPublicAddress(host)) return refuse('The URL points to a private, local or reserved address.');
    // 'localhost.' is the same name as 'localhost', and *.localhost is this machine too (RFC 6761).
    const name = host.toLowerCase().replace(/\.$/, '');
    if (name === 'localhost' || name.endsWith('.localhost')) return refuse('The URL points to this machine (localhost).');
  }
  return { ok: true, url };
}
