import { isPlausibleEmail } from '#lib/platform/email-address';

describe('isPlausibleEmail', () => {
  it.each([
    'ada@example.com',
    'ada.lovelace@example.com',
    'ada+portraits@example.com',
    'ada_l-1@example.co.uk',
    'ADA@EXAMPLE.COM',
    'a@b.io',
    'ada@mail.sub-domain.example.org',
  ])('accepts %p', (address) => {
    expect(isPlausibleEmail(address)).toBe(true);
  });

  it.each([
    ['no @', 'ada.example.com'],
    ['two @', 'ada@@example.com'],
    ['nothing before the @', '@example.com'],
    ['nothing after the @', 'ada@'],
    ['a domain without a dot', 'ada@localhost'],
    ['a one-letter top-level domain', 'ada@example.c'],
    ['a space inside', 'ada lovelace@example.com'],
    ['a space around it', ' ada@example.com'],
    ['two dots in a row', 'ada..l@example.com'],
    ['a dot at the start', '.ada@example.com'],
    ['a domain starting with a hyphen', 'ada@-example.com'],
    ['an empty string', ''],
  ])('refuses an address with %s: %p', (_case, address) => {
    expect(isPlausibleEmail(address)).toBe(false);
  });
});
