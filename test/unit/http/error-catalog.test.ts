import { ApiError, ERROR_CATALOG } from '#lib/http/errors';
import { documentedErrorStatuses } from '../../support/documented-errors';

const documented = documentedErrorStatuses();

describe('error catalogue', () => {
  it.each(Object.entries(ERROR_CATALOG))('documents %s with its status in the error table', (code, { status }) => {
    // Assess
    expect(documented.get(code)).toBe(status);
  });

  it('has an error-table row for no code the catalogue lacks', () => {
    // Assess
    expect([...documented.keys()].sort()).toEqual(Object.keys(ERROR_CATALOG).sort());
  });

  it('gives each error the catalogue status and the body shape', () => {
    // Prepare
    const error = new ApiError('invalid_json');

    // Assess
    expect(error.status).toBe(400);
    expect(error.toJSON()).toEqual({ ok: false, error: 'invalid_json', message: ERROR_CATALOG.invalid_json.message });
  });
});
