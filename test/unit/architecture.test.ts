import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type RuleName, type SourceTree, checkArchitecture, importsOf } from '../support/architecture-rules';

/** The layout of docs/architecture.md, held over lib/, functions/ and scripts/ (test/support/architecture-rules.ts). */
const ROOT = join(__dirname, '..', '..');

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(folder, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(folder, entry.name)]
        : [],
  );
}

const REPOSITORY: SourceTree = new Map(
  ['lib', 'functions', 'scripts'].flatMap(sourceFiles).map((path) => [path, readFileSync(join(ROOT, path), 'utf8')]),
);

/** The tests, for the rule that applies to them too: table keys come from the keys module. This file's fixtures break rules on purpose. */
const TESTS: SourceTree = new Map(
  sourceFiles('test')
    .filter((path) => path !== 'test/unit/architecture.test.ts')
    .map((path) => [path, readFileSync(join(ROOT, path), 'utf8')]),
);

const tree = (files: Record<string, string>): SourceTree => new Map(Object.entries(files));
const rulesBroken = (files: Record<string, string>): RuleName[] => [
  ...new Set(checkArchitecture(tree(files)).map((violation) => violation.rule)),
];

describe('the layout of lib/, functions/ and scripts/', () => {
  it('finds the modules it checks and their imports', () => {
    // Assess
    expect([...REPOSITORY.keys()]).toEqual(
      expect.arrayContaining([
        'lib/payments/rules/order-lifecycle.ts',
        'lib/payments/store/order-transitions.ts',
        'functions/checkin/post-group-shoot.ts',
        'scripts/admin/cli.ts',
      ]),
    );
    expect(
      importsOf(
        'lib/payments/store/order-transitions.ts',
        REPOSITORY.get('lib/payments/store/order-transitions.ts')!,
      ).map((entry) => entry.target),
    ).toEqual(expect.arrayContaining(['lib/payments/rules/order-lifecycle.ts', 'lib/payments/store/orders.ts']));
  });

  it('holds every rule', () => {
    expect(checkArchitecture(REPOSITORY)).toEqual([]);
  });

  it('finds no table key prefix written by hand in the tests either', () => {
    expect(checkArchitecture(TESTS).filter((violation) => violation.rule === 'key-prefix')).toEqual([]);
  });
});

describe('each rule fails on a deliberate violation', () => {
  it('passes a small tree that keeps every rule', () => {
    // Prepare
    const files = {
      'lib/platform/clock.ts': 'export const now = () => 0;',
      'lib/platform/table/keys.ts': 'export const keys = { photo: (id: string) => `PHOTO#${id}` };',
      'lib/photos/rules/photo-model.ts': "import { now } from '#lib/platform/clock';",
      'lib/photos/store/photos.ts':
        "import { keys } from '#lib/platform/table/keys';\nimport { PutCommand } from '@aws-sdk/lib-dynamodb';",
      'lib/photos/person-photos.ts': "import { x } from '#lib/photos/store/photos';",
      'lib/checkin/checkin-actions.ts':
        "import { y } from '#lib/photos/person-photos';\nimport { z } from '#lib/photos/rules/photo-model';",
      'functions/photos/list.ts': "import { y } from '#lib/photos/person-photos';",
    };
    // Act, Assess
    expect(checkArchitecture(tree(files))).toEqual([]);
  });

  it.each<[string, RuleName, Record<string, string>]>([
    ['a file outside the known places of lib/', 'known-place', { 'lib/db/persons.ts': '' }],
    ['a use case in a folder of its own inside a feature', 'known-place', { 'lib/photos/sorting/place.ts': '' }],
    [
      'the kernel importing a feature',
      'kernel-below-features',
      { 'lib/platform/table/batches.ts': "import { x } from '#lib/photos/store/photos';" },
    ],
    [
      'a feature importing the HTTP edge',
      'edge-above-features',
      { 'lib/photos/ingest-photo.ts': "import { ApiError } from '#lib/http/errors';" },
    ],
    [
      'a pure rule importing the AWS SDK',
      'pure-rules',
      { 'lib/photos/rules/shoot-sequence.ts': "import { S3Client } from '@aws-sdk/client-s3';" },
    ],
    [
      'a pure rule importing a store',
      'pure-rules',
      { 'lib/photos/rules/shoot-sequence.ts': "import { x } from '#lib/photos/store/shoot-photos';" },
    ],
    [
      'a pure rule importing the table kernel',
      'pure-rules',
      { 'lib/photos/rules/shoot-sequence.ts': "import { keys } from '#lib/platform/table/keys';" },
    ],
    [
      'a pure rule importing lib/http',
      'pure-rules',
      { 'lib/photos/rules/shoot-sequence.ts': "import type { x } from '#lib/http/types';" },
    ],
    [
      'a use case reaching the table itself',
      'table-in-stores',
      { 'lib/photos/ingest-photo.ts': "import { db } from '#lib/platform/table/client';" },
    ],
    [
      'an import of a feature module off its public face',
      'public-face',
      { 'lib/checkin/submit-checkin.ts': "import { x } from '#lib/photos/assign-shoot-photo';" },
    ],
    [
      'a function importing a private store',
      'public-face',
      { 'functions/photos/x.ts': "import { x } from '#lib/photos/store/photo-notices';" },
    ],
    [
      'two features importing each other',
      'feature-cycle',
      {
        'lib/photos/ingest-photo.ts': "import { x } from '#lib/persons/list-persons';",
        'lib/persons/list-persons.ts': "import { y } from '#lib/photos/person-photos';",
      },
    ],
    [
      'a cycle through three features',
      'feature-cycle',
      {
        'lib/photos/ingest-photo.ts': "import { x } from '#lib/persons/list-persons';",
        'lib/persons/list-persons.ts': "import { y } from '#lib/checkin/checkin-info';",
        'lib/checkin/checkin-info.ts': "import { z } from '#lib/photos/person-photos';",
      },
    ],
    [
      'a key prefix outside the keys module',
      'key-prefix',
      { 'lib/photos/store/shoot-photos.ts': 'const first = `CARD#${sequenceId}#`;' },
    ],
    ['a key prefix in a script', 'key-prefix', { 'scripts/admin/x.ts': "const pk = 'TENANT#' + slug;" }],
    [
      'an SDK error name tested in a feature',
      'sdk-error-name',
      { 'lib/photos/store/photos.ts': "if ((error as Error).name !== 'TransactionCanceledException') throw error;" },
    ],
    [
      'an SDK error name tested in a CLI',
      'sdk-error-name',
      { 'scripts/admin/run-admin.ts': "if (error?.name === 'ResourceNotFoundException') return;" },
    ],
    [
      'a CLI sending to the table itself',
      'cli-through-use-cases',
      { 'scripts/admin/x.ts': "import { UpdateCommand } from '@aws-sdk/lib-dynamodb';" },
    ],
    [
      'a CLI importing the table client',
      'cli-through-use-cases',
      { 'scripts/admin/x.ts': "import { db } from '#lib/platform/table/client';" },
    ],
    [
      "a CLI importing from another CLI's folder",
      'cli-own-folder',
      { 'scripts/photos/run-photos.ts': "import { UsageError } from '../admin/admin-errors';" },
    ],
    [
      'a command module importing the catalogue that loads it (type-only)',
      'cli-cycle',
      {
        'scripts/admin/command-catalog.ts': "const load = () => import('./tenant-commands');",
        'scripts/admin/tenant-commands.ts': "import type { CommandHandlers } from './command-catalog';",
      },
    ],
    [
      'bench code importing test support',
      'bench-without-test-support',
      { 'scripts/bench/x.ts': "import { cardJpeg } from '../../test/support/factories';" },
    ],
  ])('finds %s', (_case, rule, files) => {
    expect(rulesBroken(files)).toContain(rule);
  });

  it('reads comments as prose, not as code', () => {
    // Prepare: a comment naming a key prefix and an SDK error, as the kernel's documentation does.
    const files = {
      'lib/photos/store/photos.ts':
        "/** Cards are `CARD#<sequence>#<position>`; a ConditionalCheckFailedException means 'TransactionCanceledException'. */\n// 'PERSON#'\nexport {};",
    };
    // Act, Assess
    expect(checkArchitecture(tree(files))).toEqual([]);
  });
});
