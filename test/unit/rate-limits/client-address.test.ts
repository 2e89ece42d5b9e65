import { addressOfViewerHeader, clientKey, clientNetwork } from '#lib/rate-limits/rules/client-address';
import {
  budgetOfAction,
  publicLimitsOf,
  windowInWords,
  DEFAULT_PUBLIC_LIMITS,
} from '#lib/galleries/rules/public-limits';

describe('clientNetwork', () => {
  it.each([
    ['192.0.2.7', '192.0.2.7'],
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:0db8:0000:0000:ffff:1:2:3', '2001:db8:0:0::/64'],
    ['2001:db8:aa:bb:cc:dd:ee:ff', '2001:db8:aa:bb::/64'],
  ])('counts %s as %s', (address, network) => {
    expect(clientNetwork(address)).toBe(network);
  });

  it.each(['', 'localhost', '999.1.1.1', '2001:db8::1::2'])('reads %p as no address', (address) => {
    expect(clientNetwork(address)).toBeUndefined();
  });
});

describe('addressOfViewerHeader', () => {
  it.each([
    ['198.51.100.7:46532', '198.51.100.7'],
    ['2001:db8::7:46532', '2001:db8::7'],
  ])('takes the address of %s', (value, address) => {
    expect(addressOfViewerHeader(value)).toBe(address);
  });
});

describe('clientKey', () => {
  it('is the same for every address of one /64 and differs between networks', () => {
    expect(clientKey('2001:db8:1:2::1')).toBe(clientKey('2001:db8:1:2:ffff::9'));
    expect(clientKey('2001:db8:1:2::1')).not.toBe(clientKey('2001:db8:1:3::1'));
    expect(clientKey('192.0.2.1')).not.toBe(clientKey('192.0.2.2'));
  });

  it('holds no address in clear', () => {
    expect(clientKey('192.0.2.1')).not.toContain('192');
    expect(clientKey('192.0.2.1')).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('puts every request without a readable address under one key', () => {
    expect(clientKey(undefined)).toBe(clientKey('not an address'));
  });
});

describe('public limits', () => {
  it('draws status polls on the read budget and every other action on the check-in budget', () => {
    expect(['checkinStatus', 'submitCheckin', 'retryCheckout', 'unknown', undefined].map(budgetOfAction)).toEqual([
      'reads',
      'checkins',
      'checkins',
      'checkins',
      'checkins',
    ]);
  });

  it("takes a gallery's own limit and the defaults for the others", () => {
    const reads = { limit: 5, windowMs: 60_000 };
    expect(publicLimitsOf({ reads })).toEqual({ ...DEFAULT_PUBLIC_LIMITS, reads });
    expect(publicLimitsOf(undefined)).toEqual(DEFAULT_PUBLIC_LIMITS);
  });

  it.each([
    [60_000, 'minute'],
    [3_600_000, 'hour'],
    [20 * 60_000, '20 minutes'],
    [30_000, '30 seconds'],
  ])('names a window of %i ms "%s"', (windowMs, words) => {
    expect(windowInWords(windowMs)).toBe(words);
  });
});
