// @ts-check
/**
 * The boundaries of docs/architecture.md#boundaries, checked on the real import graph (every import
 * form: either quote, `require`, `import()`, `import type`, re-exports) by dependency-cruiser.
 * `npm run lint` runs it over the tree; test/unit/architecture.test.ts runs it on small bad trees,
 * one per rule, to show that each rule can fail.
 *
 * The config reads the tree it checks, so the fixtures of the test are checked by the same rules:
 * the features are the folders of lib/ (but the kernel, the edge and the client), and each
 * feature's public face is the list in its lib/<feature>/public.ts. A feature may cut itself into
 * sub-feature folders (lib/photos/sorting/), each with its own rules/, store/ and adapters/ under
 * the same rules; for the other features and the edge it is still one feature with one face.
 */
const { existsSync, readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = process.env.BOUNDARIES_ROOT ?? __dirname;
const NOT_FEATURES = ['platform', 'http', 'client'];
const FEATURE_NAMES = existsSync(join(ROOT, 'lib'))
  ? readdirSync(join(ROOT, 'lib'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !NOT_FEATURES.includes(entry.name))
      .map((entry) => entry.name)
  : [];
const FEATURE_ALTERNATIVES = FEATURE_NAMES.join('|') || 'no-feature';
const FEATURE = `(${FEATURE_ALTERNATIVES})`;

/** The modules a feature's public.ts lists (`export const PUBLIC_MODULES = ['common/store/photos', …]`). */
function publicModulesOf(feature) {
  const file = join(ROOT, 'lib', feature, 'public.ts');
  if (!existsSync(file)) return [];
  const list = /PUBLIC_MODULES\s*=\s*\[([^\]]*)\]/.exec(readFileSync(file, 'utf8'));
  return list ? [...list[1].matchAll(/'([^']+)'/g)].map((match) => match[1]) : [];
}
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The folders of lib/<feature>/ that are a sub-feature: all but its parts (lib/photos/sorting/, not lib/photos/rules/). */
const PARTS = ['rules', 'store', 'adapters'];
const SUB_FEATURE_NAMES = FEATURE_NAMES.flatMap((feature) =>
  readdirSync(join(ROOT, 'lib', feature), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !PARTS.includes(entry.name))
    .map((entry) => entry.name),
);
/** A sub-feature's folder, when the file sits in one (`sorting/` of lib/photos/sorting/rules/…), else nothing. */
const SUB = SUB_FEATURE_NAMES.length > 0 ? `(?:(?:${[...new Set(SUB_FEATURE_NAMES)].map(escape).join('|')})/)?` : '';

const PUBLIC_PATHS = FEATURE_NAMES.flatMap((feature) =>
  [...publicModulesOf(feature), 'public'].map((module) => `^lib/${escape(feature)}/${escape(module)}\\.ts$`),
);

/** Kernel modules without I/O: the only kernel a pure rule may import. */
const PURE_KERNEL = [
  'byte-sizes',
  'clock',
  'domain-error',
  'email-address',
  'identifiers',
  'languages',
  'media-keys',
  'page-cursor',
  'person-link-token',
  'schema-parts',
  'secret-values',
].map((name) => `^lib/platform/${name}\\.ts$`);

/** Packages a pure rule may import: computation only, no I/O, no native code. */
const PURE_PACKAGES = ['valibot', 'ulid', 'culori', 'ipaddr.js', 'exif-reader'];

// Packages as resolved from the tree's root (or through a symlinked node_modules, as in the fixtures).
const TABLE_SDK = '(^|/)node_modules/@aws-sdk/(lib-dynamodb|client-dynamodb)/';
const CLI = '^scripts/(admin|import|photos|faces|studio|smoke|deploy|cli-kit)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'kernel-below-features',
      comment: 'The kernel (lib/platform) is generic: it imports no feature, no edge, no client.',
      severity: 'error',
      from: { path: '^lib/platform/' },
      to: { path: '^lib/', pathNot: '^lib/platform/' },
    },
    {
      name: 'edge-above-features',
      comment: 'Nothing below the edge imports lib/http: features speak in domain words only.',
      severity: 'error',
      from: { path: `^lib/(platform|${FEATURE_ALTERNATIVES})/` },
      to: { path: '^lib/http/' },
    },
    {
      name: 'public-face',
      comment: "Another feature's modules are reached only through what its public.ts lists.",
      severity: 'error',
      from: { path: `^(lib|functions)/${FEATURE}/` },
      to: { path: `^lib/${FEATURE}/`, pathNot: ['^lib/$2/', ...PUBLIC_PATHS] },
    },
    {
      name: 'public-face',
      comment:
        'The edge, the kernel, infra/, scripts/ and examples/ reach a feature only through what its public.ts lists.',
      severity: 'error',
      from: {
        path: '^(lib/(http|client|platform)/|functions/|infra/|scripts/|examples/)',
        pathNot: [`^functions/${FEATURE}/`, '^(infra|scripts/bench)/'],
      },
      to: { path: `^lib/${FEATURE}/`, pathNot: PUBLIC_PATHS },
    },
    {
      name: 'public-face',
      comment:
        "infra/ and the bench reach a feature through what its public.ts lists, and read its keys: infra/ scopes each function's table access by them, the bench finds the items it checks.",
      severity: 'error',
      from: { path: '^(infra|scripts/bench)/' },
      to: { path: `^lib/${FEATURE}/`, pathNot: [...PUBLIC_PATHS, `^lib/${FEATURE}/${SUB}store/keys\\.ts$`] },
    },
    {
      name: 'pure-rules',
      comment: 'A pure rule imports only pure rules and the pure kernel.',
      severity: 'error',
      from: { path: `^lib/${FEATURE}/${SUB}rules/` },
      to: { path: '^(lib|functions|scripts|infra|test)/', pathNot: [`^lib/${FEATURE}/${SUB}rules/`, ...PURE_KERNEL] },
    },
    {
      name: 'pure-rules',
      comment: 'A pure rule imports only packages of computation (no AWS SDK, no sharp, no Stripe, no file system).',
      severity: 'error',
      from: { path: `^lib/${FEATURE}/${SUB}rules/` },
      to: {
        dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown', 'core', 'unknown'],
        pathNot: [`(^|/)node_modules/(${PURE_PACKAGES.map(escape).join('|')})/`, '^(node:)?crypto$'],
      },
    },
    {
      name: 'table-in-stores',
      comment: "Only a feature's store reaches the table (its adapters may read the key prefixes of stream records).",
      severity: 'error',
      from: { path: `^lib/${FEATURE}/`, pathNot: `^lib/${FEATURE}/${SUB}store/` },
      to: { path: '^lib/platform/table/', pathNot: '^lib/platform/table/keys\\.ts$' },
    },
    {
      name: 'table-in-stores',
      comment: "Use cases read the kernel's key scheme through their store.",
      severity: 'error',
      from: { path: `^lib/${FEATURE}/`, pathNot: `^lib/${FEATURE}/${SUB}(store|adapters)/` },
      to: { path: '^lib/platform/table/keys\\.ts$' },
    },
    {
      name: 'own-keys',
      comment:
        "A feature's keys (its store/keys.ts) are built by its own stores and adapters only: another feature's items change through that feature's functions.",
      severity: 'error',
      from: { path: `^lib/${FEATURE}/` },
      to: { path: `^lib/${FEATURE}/${SUB}store/keys\\.ts$`, pathNot: '^lib/$1/' },
    },
    {
      name: 'own-keys',
      comment: "A feature's use cases and rules reach its keys through its store.",
      severity: 'error',
      from: { path: `^lib/${FEATURE}/`, pathNot: `^lib/${FEATURE}/${SUB}(store|adapters)/` },
      to: { path: `^lib/$1/${SUB}store/keys\\.ts$` },
    },
    {
      name: 'own-keys',
      comment: 'The edge, the client and the kernel build no key of a feature.',
      severity: 'error',
      from: { path: '^lib/(http|client|platform)/' },
      to: { path: `^lib/${FEATURE}/${SUB}store/keys\\.ts$` },
    },
    {
      name: 'table-in-stores',
      comment: 'The DynamoDB SDK is used by the table kernel and the stores (and the local stand-ins), nowhere else.',
      severity: 'error',
      from: { pathNot: `^(lib/platform/|lib/${FEATURE}/${SUB}store/|scripts/local/|scripts/bench/|test/)` },
      to: { path: TABLE_SDK },
    },
    {
      name: 'edge-without-table',
      comment: 'The edge reaches the table through features; it may only classify store errors.',
      severity: 'error',
      from: { path: '^lib/http/' },
      to: { path: '^lib/platform/table/', pathNot: '^lib/platform/table/(retry|store-errors)\\.ts$' },
    },
    {
      name: 'handlers-through-use-cases',
      comment: 'A handler calls use cases: never the table kernel, never a store.',
      severity: 'error',
      from: { path: '^functions/' },
      to: { path: [`^lib/${FEATURE}/${SUB}store/`, '^lib/platform/table/'] },
    },
    {
      name: 'cli-through-use-cases',
      comment: 'The command-line tools reach the table through use cases and public store functions only.',
      severity: 'error',
      from: { path: CLI },
      to: { path: '^lib/platform/table/', pathNot: '^lib/platform/table/store-errors\\.ts$' },
    },
    {
      name: 'cli-own-folder',
      comment:
        "A CLI imports what the CLIs share from scripts/cli-kit/, never from another CLI's folder; the admin commands' catalogue is the one exception, as the studio console runs those commands.",
      severity: 'error',
      from: { path: '^scripts/(admin|import|photos|faces|studio)/' },
      to: {
        path: '^scripts/(admin|import|photos|faces|studio)/',
        pathNot: ['^scripts/$1/', '^scripts/admin/command-(catalog|types)\\.ts$'],
      },
    },
    {
      name: 'scripts-without-test-support',
      comment: 'What ships or runs for users (scripts/, infra/, lib/, functions/) never imports test code.',
      severity: 'error',
      from: { path: '^(scripts|infra|lib|functions)/' },
      to: { path: '^test/' },
    },
    {
      name: 'no-cycle',
      comment: 'No module imports itself through others (type-only imports included).',
      severity: 'error',
      from: { path: '^(lib|functions|scripts|infra)/' },
      to: { circular: true },
    },
    {
      name: 'no-unresolvable',
      comment: 'Every import names something that exists (aws-lambda is a types-only package).',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true, pathNot: '^aws-lambda$' },
    },
  ],
  options: {
    doNotFollow: { path: '(^|/)node_modules/' },
    exclude: { path: '(^|/)(cdk\\.out|\\.build|\\.local)/' },
    tsConfig: { fileName: join(ROOT, 'tsconfig.json') },
    tsPreCompilationDeps: true,
    combinedDependencies: false,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
