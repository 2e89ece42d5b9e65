import { decodePersonCursor, encodePersonCursor } from '#lib/platform/page-cursor';
import { keys } from '../../support/table-keys';
import { newPersonId } from '#lib/persons/rules/person-model';

const encode = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

describe('person cursors', () => {
  it('decode to the person ID they were encoded from', () => {
    // Prepare
    const personId = newPersonId();

    // Act
    const cursor = encodePersonCursor(personId);

    // Assess
    expect(decodePersonCursor(cursor)).toBe(personId);
  });

  it.each(Array.from({ length: 20 }, () => newPersonId()))('round-trip %s', (personId) => {
    expect(decodePersonCursor(encodePersonCursor(personId))).toBe(personId);
  });

  it('are URL-safe and show no person ID in clear', () => {
    const personId = newPersonId();

    const cursor = encodePersonCursor(personId);

    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain(personId);
  });

  const personId = 'per_01hzy3m8k9q7r6s5t4v3w2x1y0';

  it('are base64url of the version p1 and the person ID', () => {
    expect(encodePersonCursor(personId)).toBe(encode(`p1:${personId}`));
    expect(decodePersonCursor(encode(`p1:${personId}`))).toBe(personId);
  });

  describe('refuse a cursor that is not one of ours', () => {
    it.each([
      ['empty', ''],
      ['not base64url at all', '!!!***'],
      ['another version', encode(`p2:${personId}`)],
      ['without a version', encode(personId)],
      ['a table key instead of a person ID', encode(`p1:${keys.person('ten_01', 'abc', personId).pk}`)],
      ['a person ID in capitals', encode(`p1:${personId.toUpperCase()}`)],
      ['a truncated person ID', encode(`p1:${personId.slice(0, -1)}`)],
      ['a person ID with a character more', encode(`p1:${personId}z`)],
      ['a person ID with a newline after it', encode(`p1:${personId}\n`)],
      ['another prefix', encode(`p1:pho_${personId.slice(4)}`)],
      ['a truncated cursor', encodePersonCursor(personId).slice(0, -3)],
      ['two cursors in one', `${encodePersonCursor(personId)}${encodePersonCursor(personId)}`],
    ])('%s', (_case, cursor) => {
      expect(decodePersonCursor(cursor)).toBeUndefined();
    });
  });
});
