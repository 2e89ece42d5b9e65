import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { conformanceProblems, schemaValidator } from '../support/openapi-conformance';
import { type Route, pathsOf, routes } from '#lib/http/routes';
import { ERROR_CATALOG } from '#lib/http/errors';
import { buildOpenApiDocument } from '../../scripts/openapi/build-openapi';

const ROOT = join(__dirname, '..', '..');
const document = buildOpenApiDocument();

describe('OpenAPI document', () => {
  it('passes the Redocly linter (recommended rules) without errors', () => {
    // The linter is an ES module with import.meta: it runs in a Node process of its own.
    const result = spawnSync(
      process.execPath,
      [join(ROOT, 'scripts', 'openapi', 'lint-openapi.mjs'), join(ROOT, 'docs', 'openapi.json')],
      {
        encoding: 'utf8',
      },
    );
    expect(result.stdout).toMatch(/^0 errors/m);
    expect(result.status).toBe(0);
  });

  it('has every route of the route module on its primary path and alias, and nothing else', () => {
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations as object).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const declared = (routes as readonly Route[]).flatMap((route) =>
      pathsOf(route).map((path) => `${route.method} ${path}`),
    );
    expect(documented.sort()).toEqual(declared.sort());
  });

  it('names every error code of the catalogue', () => {
    const named = new Set(
      JSON.stringify(document)
        .match(/"x-error-codes":\[[^\]]*\]/g)
        ?.join(',')
        .match(/[a-z_]+(?=")/g),
    );
    for (const code of Object.keys(ERROR_CATALOG)) expect([code, named.has(code)]).toEqual([code, true]);
  });

  it('has examples that validate against their own schemas', () => {
    let checked = 0;
    for (const operations of Object.values<Record<string, any>>(document.paths)) {
      for (const operation of Object.values(operations)) {
        for (const response of Object.values<any>(operation.responses)) {
          const media = response.content?.['application/json'];
          for (const example of Object.values<{ value: unknown }>(media?.examples ?? {})) {
            const validate = schemaValidator(media.schema.$ref);
            expect([media.schema.$ref, validate(example.value), validate.errors ?? null]).toEqual([
              media.schema.$ref,
              true,
              null,
            ]);
            checked += 1;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('is the committed docs/openapi.json (run npm run openapi after a change)', () => {
    const committed = JSON.parse(readFileSync(join(ROOT, 'docs', 'openapi.json'), 'utf8'));
    expect(committed).toEqual(document);
  });

  it('catches answers that drift from it (the check every integration call goes through)', () => {
    const days = { ok: true, galleryToken: 't', shootingDays: [], requestId: 'r' };
    expect(conformanceProblems('GET', '/groupshoot/t/days', 200, days)).toEqual([]);
    expect(
      conformanceProblems('GET', '/group-shoot/checkin/t/days', 200, { ...days, shootingDays: [{ id: 1 }] }),
    ).not.toEqual([]);
    expect(
      conformanceProblems('GET', '/groupshoot/t/days', 404, { ok: false, error: 'gallery_not_found' }),
    ).not.toEqual([]);
    expect(
      conformanceProblems('GET', '/groupshoot/t/days', 418, { ok: false, error: 'x', message: 'm', requestId: 'r' }),
    ).toEqual(['GET /groupshoot/{token}/days answered 418, which the document does not list']);
  });
});
