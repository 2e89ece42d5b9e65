import { EVENT_TYPES } from '#lib/events/rules/event-catalogue';
import {
  openSecret,
  parseEventTypes,
  sealSecret,
  signingSecrets,
  subscribesTo,
} from '#lib/webhooks/rules/webhook-subscription';

const KEY = 'a-sealing-key-of-the-deployment';

describe('signing secrets at rest', () => {
  it('opens what it sealed, and the sealed form holds nothing of the secret', () => {
    const sealed = sealSecret('whsec_secretvalue', KEY, 'whk_1');
    expect(sealed).not.toContain('secretvalue');
    expect(sealed).not.toBe(sealSecret('whsec_secretvalue', KEY, 'whk_1')); // a fresh IV each time
    expect(openSecret(sealed, KEY, 'whk_1')).toBe('whsec_secretvalue');
  });

  it.each([
    ['another key', 'another-key', 'whk_1'],
    ['another subscription', KEY, 'whk_2'],
  ])('refuses to open under %s', (_case, key, subscriptionId) => {
    const sealed = sealSecret('whsec_secretvalue', KEY, 'whk_1');
    expect(() => openSecret(sealed, key, subscriptionId)).toThrow();
  });

  it('refuses a tampered seal', () => {
    const [version, iv, body, tag] = sealSecret('whsec_secretvalue', KEY, 'whk_1').split('.');
    const flipped = Buffer.from(body!, 'base64url');
    flipped[0]! ^= 1;
    expect(() => openSecret([version, iv, flipped.toString('base64url'), tag].join('.'), KEY, 'whk_1')).toThrow();
  });
});

describe('subscription rules', () => {
  it('signs with the current secret and rotated ones until their grace ends', () => {
    const secrets = [
      { sealed: 'old', addedAt: '2026-01-01T00:00:00Z', expiresAt: '2026-01-02T00:00:00Z' },
      { sealed: 'new', addedAt: '2026-01-01T12:00:00Z' },
    ];
    expect(signingSecrets(secrets, Date.parse('2026-01-01T23:59:59Z')).map((s) => s.sealed)).toEqual(['old', 'new']);
    expect(signingSecrets(secrets, Date.parse('2026-01-02T00:00:00Z')).map((s) => s.sealed)).toEqual(['new']);
  });

  it('reads event type lists, with all for every type', () => {
    expect(parseEventTypes('all')).toEqual(['*']);
    expect(parseEventTypes('order.paid, person.created,order.paid')).toEqual(['order.paid', 'person.created']);
    expect(() => parseEventTypes('order.refunded')).toThrow(/Unknown event type order.refunded/);
  });

  it('sends a type only to enabled subscriptions that take it', () => {
    expect(EVENT_TYPES.filter((type) => subscribesTo({ enabled: true, eventTypes: ['*'] }, type))).toEqual([
      ...EVENT_TYPES,
    ]);
    expect(subscribesTo({ enabled: true, eventTypes: ['order.paid'] }, 'order.paid')).toBe(true);
    expect(subscribesTo({ enabled: true, eventTypes: ['order.paid'] }, 'order.expired')).toBe(false);
    expect(subscribesTo({ enabled: false, eventTypes: ['*'] }, 'order.paid')).toBe(false);
  });
});
