import {
  allowedDomainsInWords,
  checkinPolicyOf,
  emailDomainOf,
  isEmailDomainAllowed,
  normalizeAllowedDomain,
} from '#lib/galleries/rules/checkin-policy';

describe("a gallery's check-in policy", () => {
  it('is open to any address where the gallery sets none', () => {
    expect(checkinPolicyOf(undefined)).toEqual({ mode: 'open', allowedEmailDomains: [] });
    expect(isEmailDomainAllowed('anyone@throwaway.example', [])).toBe(true);
  });

  it('keeps what the gallery sets', () => {
    expect(checkinPolicyOf({ mode: 'importedOnly', allowedEmailDomains: ['example.com'] })).toEqual({
      mode: 'importedOnly',
      allowedEmailDomains: ['example.com'],
    });
  });
});

describe('allowed email domains', () => {
  it.each([
    ['ada@example.com', ['example.com'], true],
    ['Ada@EXAMPLE.com', ['example.com'], true],
    [' ada@example.com. ', ['example.com'], true],
    ['ada@mail.example.com', ['example.com'], false],
    ['ada@mail.example.com', ['*.example.com'], true],
    ['ada@a.b.example.com', ['*.example.com'], true],
    ['ada@example.com', ['*.example.com'], false],
    ['ada@badexample.com', ['*.example.com'], false],
    ['ada@example.com.evil.test', ['example.com'], false],
    ['"a@b"@evil.test', ['b'], false],
    ['ada@example.org', ['example.com', 'example.org'], true],
    ['ada@bücher.example', ['bücher.example'], true],
    ['ada@xn--bcher-kva.example', ['bücher.example'], false],
  ])('%s under %j: %s', (email, domains, allowed) => {
    expect(isEmailDomainAllowed(email, domains)).toBe(allowed);
  });

  it('takes the domain after the last @', () => {
    expect(emailDomainOf('"odd@local"@Example.COM')).toBe('example.com');
  });

  it.each([
    [' Example.COM ', 'example.com'],
    ['example.com.', 'example.com'],
    ['*.Example.com', '*.example.com'],
    ['bücher.example', 'bücher.example'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
  ])('stores the entry %j as %j', (entry, domain) => {
    expect(normalizeAllowedDomain(entry)).toEqual({ domain });
  });

  it.each([
    'example',
    '*.com',
    'exa mple.com',
    '-example.com',
    'example-.com',
    'ada@example.com',
    '*example.com',
    'a..com',
    '*.*.example.com',
    '',
  ])('refuses the entry %j', (entry) => {
    expect(normalizeAllowedDomain(entry)).toEqual({ problem: expect.stringContaining('is not a domain') });
  });

  it('names the domains for the participant', () => {
    expect(allowedDomainsInWords(['example.com'])).toBe(
      'Check-ins to this gallery need an email address at example.com.',
    );
    expect(allowedDomainsInWords(['example.com', 'example.org', '*.example.net'])).toBe(
      'Check-ins to this gallery need an email address at example.com, example.org or any subdomain of example.net.',
    );
  });
});
