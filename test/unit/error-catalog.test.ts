import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError, ERROR_CATALOG, type ErrorCode } from '#lib/errors';

const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');

describe('error catalogue', () => {
  it.each(Object.entries(ERROR_CATALOG))('documents %s with its status in the README', (code, { status }) => {
    expect(readme).toMatch(new RegExp(`^\\| ${status} \\| ${code} \\|`, 'm'));
  });

  it('has a README row for no code the catalogue lacks', () => {
    const documented = [...readme.matchAll(/^\| \d{3} \| ([a-z_]+) \|/gm)].map((match) => match[1]);
    expect(documented.sort()).toEqual(Object.keys(ERROR_CATALOG).sort());
  });

  it('gives each error the catalogue status and the body shape', () => {
    const error = new ApiError('invalid_json' as ErrorCode);
    expect(error.status).toBe(400);
    expect(error.toJSON()).toEqual({ ok: false, error: 'invalid_json', message: ERROR_CATALOG.invalid_json.message });
  });
});
