import { type AddressMode, checkWebhookUrl, isPublicAddress } from '#lib/webhooks/rules/address-policy';

describe('isPublicAddress', () => {
  describe.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private (10/8)'],
    ['172.16.5.4', 'private (172.16/12)'],
    ['172.31.255.255', 'private (172.16/12, its end)'],
    ['192.168.0.10', 'private (192.168/16)'],
    ['169.254.169.254', 'link-local (the instance metadata service)'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.1', 'documentation'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fc00::1', 'IPv6 unique local'],
    ['fd12:3456::1', 'IPv6 unique local (fd)'],
    ['fe80::1', 'IPv6 link-local'],
    ['ff02::1', 'IPv6 multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata service'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped metadata service, in hex'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:100.64.0.1', 'IPv4-mapped carrier-grade NAT'],
    ['::ffff:0:127.0.0.1', 'IPv4-translated loopback (RFC 6145)'],
    ['::127.0.0.1', 'IPv4-compatible loopback (deprecated, RFC 4291)'],
    ['::7f00:1', 'IPv4-compatible loopback, in hex'],
    ['::a9fe:a9fe', 'IPv4-compatible metadata service, in hex'],
    ['::10.0.0.1', 'IPv4-compatible private'],
    ['::8.8.8.8', 'IPv4-compatible public: the whole deprecated range is refused'],
    ['::808:808', 'IPv4-compatible public, in hex'],
    ['2002:7f00:1::1', '6to4 of a loopback address'],
    ['2002:a9fe:a9fe::1', '6to4 of the metadata service'],
    ['2002:808:808::1', '6to4 of a public address: the whole range is refused'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo of client 127.0.0.1'],
    ['2001:0:a00:1::1', 'Teredo with a private server'],
    ['2001::1', 'Teredo: the whole range is refused'],
    ['64:ff9b::127.0.0.1', 'NAT64 of a loopback address'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 of the metadata service'],
    ['64:ff9b::8.8.8.8', 'NAT64 of a public address: the whole prefix is refused'],
    ['64:ff9b:1::a00:1', 'NAT64 local-use prefix (RFC 8215)'],
    ['fec0::1', 'site-local (deprecated, RFC 3879)'],
    ['feff:ffff::1', 'site-local, its end'],
  ])('%s (%s)', (address) => {
    it('is refused', () => {
      expect(isPublicAddress(address)).toBe(false);
    });

    it('makes a URL with it as host refused in strict mode', () => {
      const host = address.includes(':') ? `[${address}]` : address;
      expect(checkWebhookUrl(`https://${host}/hooks`, 'strict')).toEqual({ ok: false, reason: expect.any(String) });
    });
  });

  describe.each([
    ['8.8.8.8', 'public IPv4'],
    ['2606:4700::1111', 'public IPv6'],
    ['2606:4700:4700::1111', 'public IPv6 (a resolver)'],
    ['2a00:1450:4001:80b::200e', 'public IPv6 (another block)'],
    ['2001:4860:4860::8888', 'public IPv6 in 2001::/16, outside Teredo'],
    ['2003::1', 'public IPv6 next to 6to4'],
    ['::ffff:8.8.8.8', 'IPv4-mapped public IPv4'],
    ['::ffff:808:808', 'IPv4-mapped public IPv4, in hex'],
  ])('%s (%s)', (address) => {
    it('is accepted', () => {
      expect(isPublicAddress(address)).toBe(true);
    });

    it('makes a URL with it as host accepted in strict mode', () => {
      const host = address.includes(':') ? `[${address}]` : address;
      expect(checkWebhookUrl(`https://${host}/hooks`, 'strict')).toEqual({ ok: true, url: expect.any(URL) });
    });
  });

  it.each([
    '',
    'localhost',
    'example.com',
    '999.1.1.1',
    '2001:db8::1::2',
    '2130706433',
    '127.1',
    '8.8.8.8/32',
    '2606:4700::1111%eth0',
  ])('reads %p as no public address', (text) => {
    expect(isPublicAddress(text)).toBe(false);
  });
});

describe('checkWebhookUrl', () => {
  const modes: AddressMode[] = ['strict', 'local'];

  describe.each(modes)('in %s mode', (mode) => {
    it.each([
      'https://hooks.example.com/groupshoot',
      'https://hooks.example.com:8443/groupshoot?tenant=acme',
      'https://[2606:4700::1111]/hook',
    ])('accepts %s', (raw) => {
      const answer = checkWebhookUrl(raw, mode);
      expect(answer).toEqual({ ok: true, url: new URL(raw) });
    });

    it.each([
      ['a relative URL', '/hooks'],
      ['no URL at all', 'hooks.example.com'],
      ['another scheme', 'ftp://hooks.example.com/hook'],
      ['plain http to another host', 'http://hooks.example.com/hook'],
      ['a user name', 'https://user@hooks.example.com/hook'],
      ['a password', 'https://user:secret@hooks.example.com/hook'],
      ['a fragment', 'https://hooks.example.com/hook#part'],
      ['an empty fragment', 'https://hooks.example.com/hook#'],
      [
        'more than 2048 characters',
        `https://hooks.example.com/${'a'.repeat(2049 - 'https://hooks.example.com/'.length)}`,
      ],
    ])('refuses %s', (_case, raw) => {
      const answer = checkWebhookUrl(raw, mode);
      expect(answer).toEqual({ ok: false, reason: expect.stringMatching(/^[A-Z].+\.$/) });
    });

    it('accepts a URL of exactly 2048 characters', () => {
      const raw = `https://hooks.example.com/${'a'.repeat(2048 - 'https://hooks.example.com/'.length)}`;
      expect(raw).toHaveLength(2048);
      expect(checkWebhookUrl(raw, mode).ok).toBe(true);
    });
  });

  describe('in strict mode', () => {
    it.each([
      'http://localhost:3000/hook',
      'http://127.0.0.1:3000/hook',
      'http://[::1]:3000/hook',
      'https://localhost/hook',
      'https://LOCALHOST./hook',
      'https://receiver.localhost/hook',
      'https://127.0.0.1/hook',
      'https://2130706433/hook', // 127.0.0.1 written as one number
      'https://0x7f.1/hook', // and in hex
      'https://[::ffff:127.0.0.1]/hook',
      'https://169.254.169.254/latest/meta-data/',
    ])('refuses %s', (raw) => {
      expect(checkWebhookUrl(raw, 'strict').ok).toBe(false);
    });

    it('explains a private address and localhost in words', () => {
      expect(checkWebhookUrl('https://10.0.0.1/hook', 'strict')).toEqual({
        ok: false,
        reason: 'The URL points to a private, local or reserved address.',
      });
      expect(checkWebhookUrl('https://localhost/hook', 'strict')).toEqual({
        ok: false,
        reason: 'The URL points to this machine (localhost).',
      });
      expect(checkWebhookUrl('http://hooks.example.com/hook', 'strict')).toEqual({
        ok: false,
        reason: 'The URL must start with https://.',
      });
    });
  });

  describe('in local mode', () => {
    it.each([
      'http://localhost:3000/hook',
      'http://127.0.0.1:3000/hook',
      'http://[::1]:3000/hook',
      'https://localhost:3443/hook',
      'https://10.0.0.5/hook',
    ])('accepts %s', (raw) => {
      expect(checkWebhookUrl(raw, 'local')).toEqual({ ok: true, url: new URL(raw) });
    });

    it.each([
      'http://receiver.localhost/hook',
      'http://10.0.0.5/hook',
      'http://192.168.1.20:8080/hook',
      'http://127.0.0.2/hook',
    ])('refuses plain http to %s', (raw) => {
      expect(checkWebhookUrl(raw, 'local')).toEqual({
        ok: false,
        reason: 'Plain http is allowed only for localhost, 127.0.0.1 and [::1]; use https.',
      });
    });
  });
});
