import { ERROR_CATALOG } from '#lib/http/errors';
import { routes } from '#lib/http/routes';
import {
  contractCodeProblems,
  contractErrorStatuses,
  documentedAdditionCodes,
  documentedAdditions,
  errorTableRows,
} from '../../support/contract-errors';

/**
 * Contract codes only (issue 40): every code the edge can answer is the contract's, with the
 * contract's status, or one the service documents as its own in docs/api-reference.md
 * ("Codes beyond the contract"). An ApiError takes only a code of the catalogue, and every
 * domain refusal is mapped to one (domain-error-mapping.ts), so the catalogue is what any route
 * can answer: each route is held to all of it, the strictest reading.
 */

const CATALOGUE: ReadonlyMap<string, number> = new Map(
  Object.entries(ERROR_CATALOG).map(([code, { status }]) => [code, status]),
);
const EVERY_ROUTE_ANSWERS_THE_CATALOGUE = new Map(routes.map((route) => [route.id, CATALOGUE]));

describe('contract codes only', () => {
  it('reads the contract error table, with the codes of a missing and a wrong API key', () => {
    // Act
    const contract = contractErrorStatuses();

    // Assess
    expect(contract.get('api_key_required')).toBe(401);
    expect(contract.get('invalid_api_key')).toBe(401);
    expect(contract.size).toBeGreaterThanOrEqual(20);
  });

  it('answers on every route only codes of the contract (with its status) or documented additions', () => {
    // Prepare
    const inputs = {
      answered: EVERY_ROUTE_ANSWERS_THE_CATALOGUE,
      contract: contractErrorStatuses(),
      additions: documentedAdditionCodes(),
    };

    // Act
    const problems = contractCodeProblems(inputs);

    // Assess
    expect(problems).toEqual([]);
  });

  it('no longer answers invalid_authorization_scheme, a code the contract does not name', () => {
    // Assess
    expect(Object.keys(ERROR_CATALOG)).not.toContain('invalid_authorization_scheme');
    expect(documentedAdditionCodes()).not.toContain('invalid_authorization_scheme');
  });
});

describe('contractCodeProblems', () => {
  const contract = new Map([
    ['api_key_required', 401],
    ['invalid_api_key', 401],
  ]);
  const additions = new Set(['files_required']);

  it('finds nothing when every code is the contract’s or an addition', () => {
    // Prepare
    const answered = new Map([
      ['listDays', new Map([['api_key_required', 401]])],
      ['requestUploads', new Map([['files_required', 400]])],
    ]);

    // Act + Assess
    expect(contractCodeProblems({ answered, contract, additions })).toEqual([]);
  });

  it('names a fabricated code that is neither the contract’s nor documented, with its route', () => {
    // Prepare
    const answered = new Map([
      [
        'listDays',
        new Map([
          ['api_key_required', 401],
          ['invalid_authorization_scheme', 401],
        ]),
      ],
      ['requestUploads', new Map([['files_required', 400]])],
    ]);

    // Act
    const problems = contractCodeProblems({ answered, contract, additions });

    // Assess
    expect(problems).toEqual([
      "listDays can answer invalid_authorization_scheme, which is neither in the contract's error table nor a documented addition",
    ]);
  });

  it('names a contract code answered with another status', () => {
    // Prepare
    const answered = new Map([['listDays', new Map([['invalid_api_key', 403]])]]);

    // Act
    const problems = contractCodeProblems({ answered, contract, additions: new Set() });

    // Assess
    expect(problems).toEqual(['listDays answers invalid_api_key with 403; the contract says 401']);
  });

  it('names an addition that is a contract code, and one that no route answers', () => {
    // Prepare
    const answered = new Map([['listDays', new Map([['invalid_api_key', 401]])]]);

    // Act
    const problems = contractCodeProblems({ answered, contract, additions: new Set(['invalid_api_key', 'gone_code']) });

    // Assess
    expect(problems).toEqual([
      'gone_code is documented as an addition, but no route answers it',
      'invalid_api_key is documented as an addition, but it is a code of the contract',
    ]);
  });
});

describe('reading the tables', () => {
  it('reads the status and code of each error-table row, and nothing else', () => {
    // Prepare
    const text = '| HTTP | error | When |\n|---|---|---|\n| 401 | api_key_required | no key |\n| `x` | y |\n';

    // Act + Assess
    expect([...errorTableRows(text)]).toEqual([['api_key_required', 401]]);
  });

  it('reads the additions of their own section only', () => {
    // Prepare
    const text = [
      '## Errors',
      '| `not_an_addition` | elsewhere |',
      '## Codes beyond the contract',
      '| error | why |',
      '|---|---|',
      '| `files_required` | uploads |',
      '| `not_found` | unknown path |',
      '## Next',
      '| `after_the_section` | no |',
    ].join('\n');

    // Act + Assess
    expect([...documentedAdditions(text)]).toEqual(['files_required', 'not_found']);
  });

  it('fails loudly when the additions section is missing', () => {
    expect(() => documentedAdditions('## Errors\n')).toThrow('No "## Codes beyond the contract" section');
  });
});
