import { resetClock, setClock } from '#lib/platform/clock';
import { ExpiringCache } from '#lib/platform/expiring-cache';

describe('ExpiringCache', () => {
  let clock: number;
  beforeEach(() => {
    clock = 1_800_000_000_000;
    setClock(() => clock);
  });
  afterEach(() => resetClock());

  it('gives a value back until it is maxAgeMs old, on the replaceable clock, and then forgets it', () => {
    // Prepare
    const cache = new ExpiringCache<string>(60_000);
    cache.set('acme', 'Acme Studio');

    // Act
    clock += 59_999;
    const young = cache.get('acme');
    clock += 1;
    const old = cache.get('acme');

    // Assess
    expect([young, old]).toEqual(['Acme Studio', undefined]);
  });

  it('starts the age again when a value is stored again', () => {
    const cache = new ExpiringCache<number>(1_000);
    cache.set('tier', 1);
    clock += 900;
    cache.set('tier', 2);

    clock += 900;

    expect(cache.get('tier')).toBe(2);
  });

  it('trusts no value stored in what is now the future (a clock set back)', () => {
    const cache = new ExpiringCache<number>(1_000);
    cache.set('tier', 1);

    clock -= 1;

    expect(cache.get('tier')).toBeUndefined();
  });

  it('keeps at most maxEntries, dropping the oldest first', () => {
    const cache = new ExpiringCache<number>(60_000, 2);
    cache.set('a', 1);
    cache.set('b', 2);

    cache.set('c', 3);

    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 2, 3]);
  });

  it('forgets one value on delete, and every value on clear', () => {
    const cache = new ExpiringCache<number>(60_000);
    cache.set('a', 1);
    cache.set('b', 2);

    cache.delete('a');
    const afterDelete = [cache.get('a'), cache.get('b')];
    cache.clear();

    expect([afterDelete, cache.get('b')]).toEqual([[undefined, 2], undefined]);
  });
});
