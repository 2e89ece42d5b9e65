import * as v from 'valibot';
import { DomainError } from '#lib/platform/domain-error';
import { type PrecedenceRule, optionalText, parseBody, requiredText, textMessages } from '#lib/platform/schema-parts';
import { refusalOf } from '../../support/domain-errors';

/** A body with a required text, a checked one and an optional one, in this order. */
const Body = v.object({
  title: requiredText(10, textMessages('title', 10)),
  code: v.pipe(
    v.string('code must be a string.'),
    v.check((code) => code.startsWith('C'), 'code must start with C.'),
  ),
  note: optionalText(5, textMessages('note', 5)),
});

/** Not the schema's order: a missing title, then every type and limit (note before title), then the check. */
const PRECEDENCE: PrecedenceRule[] = [
  { member: 'title', kind: 'blank', refusal: () => new DomainError('name_required') },
  { member: 'note', kind: 'shape' },
  { member: 'title', kind: 'shape' },
  { member: 'code', kind: 'shape' },
  { member: 'code', kind: 'check' },
];

const parse = (body: unknown) => parseBody(Body, body, PRECEDENCE);

describe('parseBody', () => {
  it('returns the parsed body: strings trimmed, a blank optional text as null', () => {
    expect(parse({ title: '  Portrait ', code: 'C1', note: '   ' })).toEqual({
      title: 'Portrait',
      code: 'C1',
      note: null,
    });
  });

  it.each([
    ['absent', {}],
    ['null', { title: null }],
    ['blank', { title: ' \t' }],
  ])('gives a title that is %s the refusal of its blank rule, before every other issue', (_case, title) => {
    expect(refusalOf(() => parse({ code: 7, note: 'too long here', ...title }))).toMatchObject({
      reason: 'name_required',
    });
  });

  it('ranks issues by the precedence, not by the order of the schema', () => {
    const error = refusalOf(() => parse({ title: 'x'.repeat(11), code: 'D', note: 'x'.repeat(6) }));

    expect(error).toMatchObject({
      reason: 'invalid_field',
      subject: { field: 'note' },
      message: 'note must have at most 5 characters.',
    });
  });

  it('takes a check after the types and limits of every member', () => {
    expect(refusalOf(() => parse({ title: 'x'.repeat(11), code: 'D' }))).toMatchObject({ subject: { field: 'title' } });
    expect(refusalOf(() => parse({ title: 'Portrait', code: 'D' }))).toMatchObject({
      subject: { field: 'code' },
      message: 'code must start with C.',
    });
  });

  it('refuses an issue that no rule names last, as invalid_field for its member', () => {
    const Other = v.object({
      other: v.string('other must be a string.'),
      note: optionalText(5, textMessages('note', 5)),
    });

    expect(refusalOf(() => parseBody(Other, { other: 1, note: 'x'.repeat(6) }, PRECEDENCE))).toMatchObject({
      subject: { field: 'note' },
    });
    expect(refusalOf(() => parseBody(Other, { other: 1 }, PRECEDENCE))).toMatchObject({
      reason: 'invalid_field',
      subject: { field: 'other' },
      message: 'other must be a string.',
    });
  });
});
