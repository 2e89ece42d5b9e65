import { ALL_CLIENTS, DEFAULT_PUBLIC_LIMITS, publicLimitsOf } from '#lib/galleries/rules/public-limits';
import { lookupBudgets, lookupByCodeAllowed } from '#lib/photos/access/rules/lookup-budgets';
import { ACCESS_CODE_ALPHABET, ACCESS_CODE_LENGTH } from '#lib/persons/rules/access-codes';
import { clientSite, clientSiteKey } from '#lib/rate-limits/rules/client-address';

const YEAR_MS = 365 * 24 * 60 * 60_000;
/** The most wrong pairs a GCRA budget answers in a year: its burst, then its rate. */
const perYear = ({ limit, windowMs }: { limit: number; windowMs: number }) => limit + YEAR_MS / (windowMs / limit);

describe('budgets of wrong photo lookups', () => {
  it('counts a lookup against its client site, its code and the whole gallery, with the gallery its own limits', () => {
    // Act
    const budgets = lookupBudgets(publicLimitsOf({ photoLookupFailuresPerCode: { limit: 2, windowMs: 60_000 } }), {
      site: 'site-x',
      code: 'c0de',
    });
    // Assess
    expect(budgets).toEqual([
      { client: 'site-x', policy: DEFAULT_PUBLIC_LIMITS.photoLookupFailuresPerSite },
      { client: 'code-c0de', policy: { limit: 2, windowMs: 60_000 } },
      { client: ALL_CLIENTS, policy: DEFAULT_PUBLIC_LIMITS.photoLookupFailures },
    ]);
  });

  it('keeps the chance of finding one given person’s code within a year at most 1.9 %, whatever the number of networks', () => {
    const codes = ACCESS_CODE_ALPHABET.length ** ACCESS_CODE_LENGTH;
    expect([ACCESS_CODE_ALPHABET.length, codes]).toEqual([31, 923_521]);
    expect(perYear(DEFAULT_PUBLIC_LIMITS.photoLookupFailures)).toBe(17_720);
    expect(perYear(DEFAULT_PUBLIC_LIMITS.photoLookupFailures) / codes).toBeLessThan(0.0192);
    // One network alone cannot even spend the gallery's budget in a year; one code gets 5 + 4 a day.
    expect(perYear(DEFAULT_PUBLIC_LIMITS.photoLookupFailuresPerSite)).toBe(8_770);
    expect(perYear(DEFAULT_PUBLIC_LIMITS.photoLookupFailuresPerCode)).toBe(1_465);
  });

  it('counts IPv4 clients by /24 and IPv6 clients by /48, as hashes', () => {
    expect([
      clientSite('198.51.100.7'),
      clientSite('::ffff:198.51.100.200'),
      clientSite('2001:db8:1:2:3::4'),
      clientSite('nonsense'),
    ]).toEqual(['198.51.100.0/24', '198.51.100.0/24', '2001:db8:1::/48', undefined]);
    expect(clientSiteKey('198.51.100.7')).toBe(clientSiteKey('198.51.100.99'));
    expect(clientSiteKey('198.51.100.7')).not.toBe(clientSiteKey('198.51.101.7'));
    expect(clientSiteKey('198.51.100.7')).not.toContain('198');
  });

  it.each([
    [{ codeAndEmail: false, codeAndEmployeeId: false }, [false, false, false]],
    [{ codeAndEmail: true, codeAndEmployeeId: false }, [true, false, true]],
    [{ codeAndEmail: false, codeAndEmployeeId: true }, [false, true, true]],
  ])(
    'takes lookups by code with the factors the gallery allows: %j gives email, employee ID, none = %j',
    (access, expected) => {
      expect([
        lookupByCodeAllowed(access, 'email'),
        lookupByCodeAllowed(access, 'employeeId'),
        lookupByCodeAllowed(access, undefined),
      ]).toEqual(expected);
    },
  );
});
