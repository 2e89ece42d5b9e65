import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { ERROR_CODE_OF_REASON } from '#lib/http/domain-error-mapping';
import { join } from 'node:path';
import {
  type Graph,
  REPOSITORY,
  cruise,
  declaredRefusals,
  featureCycles,
  filesOutOfPlace,
  subFeatureCycles,
  textFindings,
  writeTree,
} from '../support/boundaries';

/**
 * The boundaries of docs/architecture.md#boundaries: dependency-cruiser's rules
 * (.dependency-cruiser.cjs) over the repository and over a bad tree with one violation per
 * case, and the checks no import graph shows (places, cycles between features and between the
 * sub-features of one, literal text).
 */
const SCANNED = ['lib', 'functions', 'scripts', 'infra', 'test', 'examples'];

function sourceFiles(folder: string): string[] {
  return readdirSync(join(REPOSITORY, folder), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(folder, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(folder, entry.name)]
        : [],
  );
}

const FEATURES = readdirSync(join(REPOSITORY, 'lib'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !['platform', 'http', 'client'].includes(entry.name))
  .map((entry) => entry.name);

/** Whether a module is the feature's own (its lib/ or functions/ folder), or a test, which may import anything. */
function ownFolder(source: string, feature: string): boolean {
  return (
    source.startsWith('test/') || source.startsWith(`lib/${feature}/`) || source.startsWith(`functions/${feature}/`)
  );
}

describe('the boundaries of the repository', () => {
  let graph: Graph;
  beforeAll(async () => {
    graph = await cruise(REPOSITORY, SCANNED);
  }, 120_000);

  it('reads every folder it checks, and their imports', () => {
    // Assess
    expect([...graph.modules.keys()]).toEqual(
      expect.arrayContaining([
        'lib/payments/store/order-transitions.ts',
        'functions/checkin/post-group-shoot.ts',
        'scripts/studio/cli.ts',
        'infra/groupshoot-stack.ts',
        'test/unit/architecture.test.ts',
      ]),
    );
    expect(graph.modules.get('lib/payments/store/order-transitions.ts')).toEqual(
      expect.arrayContaining(['lib/payments/rules/order-lifecycle.ts', 'lib/payments/store/orders.ts']),
    );
  });

  it('breaks no rule of dependency-cruiser', () => {
    expect(graph.violations).toEqual([]);
  });

  it('has no cycle between features, nor between the sub-features of one, and every file of lib/ in a known place', () => {
    expect(featureCycles(graph.modules)).toEqual([]);
    expect(subFeatureCycles(graph.modules)).toEqual([]);
    expect(filesOutOfPlace(graph.modules.keys())).toEqual([]);
  });

  it('writes table key prefixes only in the keys modules and tests SDK error names only in the kernel', () => {
    // The architecture tests' own fixtures break the rules on purpose.
    const files = SCANNED.flatMap(sourceFiles).filter((path) => !/^test\/unit\/architecture\.test\.ts$/.test(path));
    const findings = files.flatMap((path) => textFindings(path, readFileSync(join(REPOSITORY, path), 'utf8')));
    expect(findings).toEqual([]);
  });

  it.each(FEATURES)('lists in lib/%s/public.ts only modules that code outside the feature imports', async (feature) => {
    // Prepare
    const { PUBLIC_MODULES } = (await import(`#lib/${feature}/public`)) as { PUBLIC_MODULES: readonly string[] };
    const importedFromOutside = new Set(
      [...graph.modules].filter(([source]) => !ownFolder(source, feature)).flatMap(([, targets]) => targets),
    );
    // Assess
    expect(PUBLIC_MODULES.filter((module) => !importedFromOutside.has(`lib/${feature}/${module}.ts`))).toEqual([]);
  });

  it.each(FEATURES)(
    'lists in lib/%s/public.ts only modules that exist, and the rules read that list',
    async (feature) => {
      // Prepare
      const { PUBLIC_MODULES } = (await import(`#lib/${feature}/public`)) as { PUBLIC_MODULES: readonly string[] };
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the config is CommonJS, as dependency-cruiser loads it
      const config = require(join(REPOSITORY, '.dependency-cruiser.cjs')) as {
        forbidden: { name: string; to: { pathNot?: string | string[] } }[];
      };
      const publicPaths = config.forbidden
        .filter((rule) => rule.name === 'public-face')
        .flatMap((rule) => [rule.to.pathNot ?? []].flat())
        .filter((pattern) => pattern.startsWith(`^lib/${feature}/`));
      // Assess
      for (const module of PUBLIC_MODULES)
        expect(existsSync(join(REPOSITORY, 'lib', feature, `${module}.ts`))).toBe(true);
      const modulesRead = publicPaths.map((pattern) =>
        pattern
          .replace(`^lib/${feature}/`, '')
          .replace(/\\\.ts\$$/, '')
          .replace(/\\(.)/g, '$1'),
      );
      expect(new Set(modulesRead)).toEqual(new Set([...PUBLIC_MODULES, 'public']));
    },
  );
});

/**
 * A small tree that keeps every rule: features photos (with a sub-feature, sorting), persons and
 * checkin, the kernel, the edge, a CLI, infra.
 */
const GOOD_TREE: Record<string, string> = {
  'lib/platform/clock.ts': 'export const now = () => 0;',
  'lib/platform/table/keys.ts': 'export const galleryPrefix = (g: string) => `G#${g}`;',
  'lib/photos/store/keys.ts':
    "import { galleryPrefix } from '#lib/platform/table/keys';\nexport const photoKeys = { photo: (g: string, id: string) => `${galleryPrefix(g)}#PHOTO#${id}` };",
  'lib/platform/table/client.ts': 'export const db = {};',
  'lib/platform/table/queries.ts': 'export const queryAll = () => [];',
  'lib/http/errors.ts': 'export class ApiError {}',
  'lib/photos/public.ts':
    "export const PUBLIC_MODULES = ['person-photos', 'rules/photo-model', 'sorting/place-shoot-photo'] as const;",
  'lib/photos/rules/photo-model.ts':
    "import { now } from '#lib/platform/clock';\nimport * as v from 'valibot';\nexport const model = [now, v];",
  'lib/photos/store/photos.ts':
    "import { photoKeys } from '#lib/photos/store/keys';\nimport { db } from '#lib/platform/table/client';\nimport { PutCommand } from '@aws-sdk/lib-dynamodb';\nexport const x = [photoKeys, db, PutCommand];",
  'lib/photos/person-photos.ts': "import { x } from '#lib/photos/store/photos';\nexport const y = x;",
  'lib/photos/assign-shoot-photo.ts': 'export const assign = 1;',
  'lib/photos/sorting/rules/shoot-sequence.ts':
    "import { model } from '#lib/photos/rules/photo-model';\nexport const sequence = model;",
  'lib/photos/sorting/store/shoot-photos.ts':
    "import { photoKeys } from '#lib/photos/store/keys';\nimport { db } from '#lib/platform/table/client';\nimport { GetCommand } from '@aws-sdk/lib-dynamodb';\nexport const shoot = [photoKeys, db, GetCommand];",
  'lib/photos/sorting/adapters/shoot-photo-reader.ts': "import sharp from 'sharp';\nexport const read = sharp;",
  'lib/photos/sorting/place-shoot-photo.ts':
    "import { shoot } from '#lib/photos/sorting/store/shoot-photos';\nimport { sequence } from '#lib/photos/sorting/rules/shoot-sequence';\nimport { read } from '#lib/photos/sorting/adapters/shoot-photo-reader';\nimport { x } from '#lib/photos/store/photos';\nexport const place = [shoot, sequence, read, x];",
  'lib/persons/public.ts': "export const PUBLIC_MODULES = ['list-persons'] as const;",
  'lib/persons/list-persons.ts': 'export const list = 1;',
  'lib/checkin/public.ts': 'export const PUBLIC_MODULES = [] as const;',
  'lib/checkin/checkin-actions.ts':
    "import { y } from '#lib/photos/person-photos';\nimport { model } from '#lib/photos/rules/photo-model';\nimport { place } from '#lib/photos/sorting/place-shoot-photo';\nexport const z = [y, model, place];",
  'functions/photos/list.ts':
    "import { y } from '#lib/photos/person-photos';\nimport { assign } from '#lib/photos/assign-shoot-photo';\nexport const handler = [y, assign];",
  'functions/photos/sorting/ingest.ts':
    "import { place } from '#lib/photos/sorting/place-shoot-photo';\nexport const handler = place;",
  'functions/checkin/post.ts': "import { z } from '#lib/checkin/checkin-actions';\nexport const handler = z;",
  'scripts/admin/cli.ts': "import { list } from '#lib/persons/list-persons';\nexport const c = list;",
  'infra/stack.ts': "import { photoKeys } from '../lib/photos/store/keys';\nexport const s = photoKeys;",
  'test/support/thing.ts': 'export const t = 1;',
};

/** Each case: what it shows, the rule, and the files it adds to the good tree (the first is the one that breaks it). */
const BAD_CASES: [string, string, Record<string, string>][] = [
  [
    'the kernel importing a feature',
    'kernel-below-features',
    { 'lib/platform/kernel-bad.ts': "import { y } from '#lib/photos/person-photos';\nexport const k = y;" },
  ],
  [
    'a feature importing the edge, in double quotes',
    'edge-above-features',
    { 'lib/photos/edge-bad.ts': 'import { ApiError } from "#lib/http/errors";\nexport const e = ApiError;' },
  ],
  [
    'an import of internals in double quotes',
    'public-face',
    {
      'lib/checkin/double-quoted.ts':
        'import { assign } from "#lib/photos/assign-shoot-photo";\nexport const d = assign;',
    },
  ],
  [
    'an import of internals with require()',
    'public-face',
    {
      'lib/checkin/required.ts':
        "// eslint-disable-next-line\nconst store = require('#lib/photos/store/photos');\nexport const r = store;",
    },
  ],
  [
    'an import of internals with import()',
    'public-face',
    { 'lib/checkin/dynamic.ts': "export const later = () => import('#lib/photos/store/photos');" },
  ],
  [
    'a re-export of internals',
    'public-face',
    { 'lib/checkin/re-export.ts': "export { x } from '#lib/photos/store/photos';" },
  ],
  [
    'a type-only import of internals',
    'public-face',
    { 'lib/checkin/type-only.ts': "import type { x } from '#lib/photos/store/photos';\nexport type T = typeof x;" },
  ],
  [
    "infra/ importing a feature's internals",
    'public-face',
    { 'infra/internals.ts': "import { x } from '../lib/photos/store/photos';\nexport const i = x;" },
  ],
  [
    "a handler importing another feature's internals",
    'public-face',
    {
      'functions/checkin/photos-store.ts':
        "import { assign } from '#lib/photos/assign-shoot-photo';\nexport const handler = assign;",
    },
  ],
  [
    'a handler reaching the table',
    'handlers-through-use-cases',
    {
      'functions/photos/reads-rows.ts':
        "import { queryAll } from '#lib/platform/table/queries';\nexport const handler = queryAll;",
    },
  ],
  [
    'a handler calling its store',
    'handlers-through-use-cases',
    { 'functions/photos/own-store.ts': "import { x } from '#lib/photos/store/photos';\nexport const handler = x;" },
  ],
  [
    "a store building another feature's keys",
    'own-keys',
    {
      'lib/persons/store/marks.ts':
        "import { photoKeys } from '#lib/photos/store/keys';\nexport const mark = photoKeys.photo('g', 'p');",
    },
  ],
  [
    "a use case building its own feature's keys",
    'own-keys',
    { 'lib/photos/keyed.ts': "import { photoKeys } from '#lib/photos/store/keys';\nexport const k = photoKeys;" },
  ],
  [
    "a CLI reading a feature's keys",
    'public-face',
    { 'scripts/admin/keyed.ts': "import { photoKeys } from '#lib/photos/store/keys';\nexport const k = photoKeys;" },
  ],
  [
    "the edge building a feature's keys",
    'own-keys',
    { 'lib/http/keyed.ts': "import { photoKeys } from '#lib/photos/store/keys';\nexport const k = photoKeys;" },
  ],
  [
    'the edge importing the table client',
    'edge-without-table',
    { 'lib/http/table-bad.ts': "import { db } from '#lib/platform/table/client';\nexport const h = db;" },
  ],
  [
    'a pure rule importing sharp',
    'pure-rules',
    { 'lib/photos/rules/sharp-bad.ts': "import sharp from 'sharp';\nexport const p = sharp;" },
  ],
  [
    'a pure rule importing stripe',
    'pure-rules',
    { 'lib/photos/rules/stripe-bad.ts': "import Stripe from 'stripe';\nexport const p = Stripe;" },
  ],
  [
    'a pure rule importing node:fs',
    'pure-rules',
    { 'lib/photos/rules/fs-bad.ts': "import { readFileSync } from 'node:fs';\nexport const p = readFileSync;" },
  ],
  [
    'a pure rule importing the AWS SDK',
    'pure-rules',
    { 'lib/photos/rules/sdk-bad.ts': "import { S3Client } from '@aws-sdk/client-s3';\nexport const p = S3Client;" },
  ],
  [
    'a pure rule importing a store',
    'pure-rules',
    { 'lib/photos/rules/store-bad.ts': "import { x } from '#lib/photos/store/photos';\nexport const p = x;" },
  ],
  [
    'a pure rule of a sub-feature importing sharp',
    'pure-rules',
    { 'lib/photos/sorting/rules/sharp-bad.ts': "import sharp from 'sharp';\nexport const p = sharp;" },
  ],
  [
    "a pure rule of a sub-feature importing its sub-feature's store",
    'pure-rules',
    {
      'lib/photos/sorting/rules/store-bad.ts':
        "import { shoot } from '#lib/photos/sorting/store/shoot-photos';\nexport const p = shoot;",
    },
  ],
  [
    'a use case reaching the table client',
    'table-in-stores',
    { 'lib/photos/use-case-table.ts': "import { db } from '#lib/platform/table/client';\nexport const u = db;" },
  ],
  [
    'a use case sending DynamoDB commands',
    'table-in-stores',
    {
      'lib/photos/use-case-sdk.ts': "import { GetCommand } from '@aws-sdk/lib-dynamodb';\nexport const u = GetCommand;",
    },
  ],
  [
    'a use case of a sub-feature reaching the table client',
    'table-in-stores',
    {
      'lib/photos/sorting/use-case-table.ts': "import { db } from '#lib/platform/table/client';\nexport const u = db;",
    },
  ],
  [
    "a sub-feature's adapter sending DynamoDB commands",
    'table-in-stores',
    {
      'lib/photos/sorting/adapters/sdk-bad.ts':
        "import { GetCommand } from '@aws-sdk/lib-dynamodb';\nexport const a = GetCommand;",
    },
  ],
  [
    "a handler calling a sub-feature's store",
    'handlers-through-use-cases',
    {
      'functions/photos/sorting/own-store.ts':
        "import { shoot } from '#lib/photos/sorting/store/shoot-photos';\nexport const handler = shoot;",
    },
  ],
  [
    "another feature importing a sub-feature's internals",
    'public-face',
    {
      'lib/checkin/sorting-store.ts':
        "import { shoot } from '#lib/photos/sorting/store/shoot-photos';\nexport const s = shoot;",
    },
  ],
  [
    'a CLI reaching the table client',
    'cli-through-use-cases',
    { 'scripts/admin/table-bad.ts': "import { db } from '#lib/platform/table/client';\nexport const a = db;" },
  ],
  [
    "a CLI importing another CLI's folder",
    'cli-own-folder',
    { 'scripts/photos/other-cli.ts': "import { c } from '../admin/cli';\nexport const o = c;" },
  ],
  [
    'bench code importing test support',
    'scripts-without-test-support',
    { 'scripts/bench/test-support.ts': "import { t } from '../../test/support/thing';\nexport const b = t;" },
  ],
  [
    'two modules importing each other (type-only)',
    'no-cycle',
    {
      'scripts/admin/cycle-a.ts':
        "import type { B } from './cycle-b';\nexport type A = B | 1;\nexport const load = () => import('./cycle-b');",
      'scripts/admin/cycle-b.ts': "import type { A } from './cycle-a';\nexport type B = A | 2;",
    },
  ],
  [
    'an import of a module that does not exist',
    'no-unresolvable',
    { 'lib/photos/typo.ts': "import { x } from '#lib/photos/store/photoz';\nexport const t = x;" },
  ],
];

describe('each boundary rule fails on a deliberate violation', () => {
  let good: Graph;
  let bad: Graph;
  beforeAll(async () => {
    const goodTree = writeTree(GOOD_TREE);
    const badTree = writeTree({
      ...GOOD_TREE,
      ...Object.assign({}, ...BAD_CASES.map(([, , files]) => files)),
      // Two features importing each other through their public faces.
      'lib/persons/to-photos.ts': "import { y } from '#lib/photos/person-photos';\nexport const p = y;",
      'lib/photos/to-persons.ts': "import { list } from '#lib/persons/list-persons';\nexport const q = list;",
      // Two sub-features of photos importing each other, through modules that form no cycle themselves.
      'lib/photos/access/to-sorting.ts':
        "import { place } from '#lib/photos/sorting/place-shoot-photo';\nexport const a = place;",
      'lib/photos/sorting/to-access.ts': "import { a } from '#lib/photos/access/to-sorting';\nexport const s = a;",
      'lib/db/persons.ts': 'export const misplaced = 1;',
      'lib/photos/sorting/steps/place.ts': 'export const nested = 1;',
      'lib/photos/rules/nested/rule.ts': 'export const nested = 1;',
    });
    try {
      [good, bad] = await Promise.all([
        cruise(
          goodTree.root,
          SCANNED.filter((folder) => folder !== 'examples'),
        ),
        cruise(badTree.root, ['lib', 'functions', 'scripts', 'infra', 'test']),
      ]);
    } finally {
      goodTree.remove();
      badTree.remove();
    }
  }, 120_000);

  it('passes the small tree that keeps every rule', () => {
    expect([...good.modules.keys()]).toEqual(expect.arrayContaining(Object.keys(GOOD_TREE)));
    expect(good.violations).toEqual([]);
    expect(featureCycles(good.modules)).toEqual([]);
    expect(subFeatureCycles(good.modules)).toEqual([]);
    expect(filesOutOfPlace(good.modules.keys())).toEqual([]);
  });

  it.each(BAD_CASES)('finds %s (%s)', (_case, rule, files) => {
    const breaking = Object.keys(files)[0]!;
    expect(
      bad.violations.filter((violation) => violation.from === breaking).map((violation) => violation.rule),
    ).toContain(rule);
  });

  it('finds a cycle between two features', () => {
    expect(featureCycles(bad.modules).map((cycle) => [...cycle].sort())).toEqual([['persons', 'persons', 'photos']]);
  });

  it('finds a cycle between two sub-features of a feature', () => {
    expect(subFeatureCycles(bad.modules).map((cycle) => [...new Set(cycle)].sort())).toEqual([
      ['photos/access', 'photos/sorting'],
    ]);
  });

  it('finds a file of lib/ outside its known places: outside a feature, or deeper than a sub-feature and its parts', () => {
    expect(filesOutOfPlace(bad.modules.keys()).sort()).toEqual([
      'lib/db/persons.ts',
      'lib/photos/rules/nested/rule.ts',
      'lib/photos/sorting/steps/place.ts',
    ]);
  });
});

describe('the rules about literal text', () => {
  it.each([
    [
      'a key prefix in a store',
      'lib/photos/store/shoot-photos.ts',
      'const first = `CARD#${sequenceId}#`;',
      'key-prefix',
    ],
    [
      'a key prefix after an expression',
      'lib/photos/store/photos.ts',
      'const sk = `${gallery}#PHOTOS#`;',
      'key-prefix',
    ],
    ['a key prefix in double quotes', 'scripts/admin/x.ts', 'const pk = "TENANT#" + slug;', 'key-prefix'],
    ['a key prefix in a test', 'test/unit/x.test.ts', "const pk = 'PERSON#' + id;", 'key-prefix'],
    [
      'an SDK error name in a feature',
      'lib/photos/store/photos.ts',
      "if (error.name !== 'TransactionCanceledException') throw error;",
      'sdk-error-name',
    ],
    [
      "an SDK error name in a sub-feature's use case",
      'lib/photos/notices/send-photo-notices.ts',
      "if (error.name === 'MessageRejected') return;",
      'sdk-error-name',
    ],
    [
      'an SDK error name in a CLI',
      'scripts/studio/x.ts',
      'if (error?.name === "ResourceNotFoundException") return;',
      'sdk-error-name',
    ],
  ])('finds %s', (_case, path, source, rule) => {
    expect(textFindings(path, source).map((finding) => finding.rule)).toContain(rule);
  });

  it('reads comments as prose, and lets the keys modules and the kernel say what they own', () => {
    expect(
      textFindings(
        'lib/photos/store/photos.ts',
        "/** Cards are `CARD#<sequence>#<position>`; a 'TransactionCanceledException'. */\n// 'PERSON#'\nexport {};",
      ),
    ).toEqual([]);
    expect(textFindings('lib/platform/table/keys.ts', 'export const person = (id: string) => `PERSON#${id}`;')).toEqual(
      [],
    );
    expect(textFindings('lib/persons/store/keys.ts', 'export const person = (id: string) => `PERSON#${id}`;')).toEqual(
      [],
    );
    expect(textFindings('lib/platform/table/retry.ts', "const name = 'TransactionCanceledException';")).toEqual([]);
    expect(textFindings('lib/photos/adapters/email-sender.ts', "new Set(['MessageRejected']);")).toEqual([]);
    expect(textFindings('lib/photos/notices/adapters/email-sender.ts', "new Set(['MessageRejected']);")).toEqual([]);
  });
});

describe('the reasons of domain errors, each declared by one feature', () => {
  const declarations = sourceFiles('lib').flatMap((path) =>
    declaredRefusals(path, readFileSync(join(REPOSITORY, path), 'utf8')).map((reason) => ({ path, reason })),
  );

  it("declares them only in the kernel's domain-error.ts and in features' rules/refusals.ts", () => {
    const places = new Set(declarations.map(({ path }) => path));

    expect(
      [...places].filter((path) => !/^lib\/(platform\/domain-error|[^/]+\/([^/]+\/)?rules\/refusals)\.ts$/.test(path)),
    ).toEqual([]);
  });

  it('declares each reason once, and the edge answers exactly those', () => {
    const reasons = declarations.map(({ reason }) => reason);

    expect(reasons.filter((reason, index) => reasons.indexOf(reason) !== index)).toEqual([]);
    expect(new Set(reasons)).toEqual(new Set(Object.keys(ERROR_CODE_OF_REASON)));
  });

  it('finds the reasons a module declares', () => {
    const source =
      "declare module '#lib/platform/domain-error' { interface DomainErrorReasons { a_b: true; c: true } }";

    expect(declaredRefusals('lib/x/rules/refusals.ts', source)).toEqual(['a_b', 'c']);
  });
});
