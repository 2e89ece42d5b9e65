import { dirname, join, normalize } from 'node:path';

/**
 * The layout rules of docs/architecture.md, as a checker over any tree of source files: the
 * architecture test runs it on the repository, and on small bad fixtures to show that each rule
 * can fail. A tree is a map from a path (from the repository root) to the file's text.
 */
export type SourceTree = ReadonlyMap<string, string>;

export type RuleName =
  | 'known-place'
  | 'kernel-below-features'
  | 'edge-above-features'
  | 'pure-rules'
  | 'table-in-stores'
  | 'public-face'
  | 'feature-cycle'
  | 'key-prefix'
  | 'sdk-error-name'
  | 'cli-through-use-cases'
  | 'cli-own-folder'
  | 'cli-cycle'
  | 'bench-without-test-support';

export interface Violation {
  rule: RuleName;
  path: string;
  detail: string;
}

/** The features of lib/, each a folder: its pure rules in rules/, its store in store/, adapters in adapters/, use cases beside them. */
export const FEATURES = [
  'tenants',
  'rate-limits',
  'idempotency',
  'galleries',
  'events',
  'persons',
  'faces',
  'payments',
  'photos',
  'checkin',
  'hr-exports',
  'privacy',
  'webhooks',
] as const;
export type Feature = (typeof FEATURES)[number];

/**
 * Each feature's public face: the modules code outside the feature may import, as paths inside
 * the feature folder. A feature's pure rules (rules/) are public as a whole; of its use cases,
 * schemas, store and adapters, only what is listed here.
 */
export const PUBLIC_FACES: Record<Feature, readonly string[]> = {
  tenants: ['store/tenants', 'store/api-keys', 'adapters/logo-image'],
  'rate-limits': ['store/rate-limit-counters'],
  idempotency: ['store/idempotency-records'],
  galleries: [
    'gallery-schemas',
    'group-shoot-gallery',
    'get-gallery-stats',
    'list-form-fields',
    'list-shooting-days',
    'store/galleries',
    'store/gallery-pointers',
    'store/gallery-counters',
    'store/day-bookings',
  ],
  events: ['store/outbox', 'adapters/stream-records'],
  persons: [
    'person-schemas',
    'import-persons',
    'list-persons',
    'store/persons',
    'store/access-code-allocation',
    'store/guest-list',
    'store/imported-completion',
  ],
  faces: [
    'reference-faces',
    'second-opinion',
    'face-matching-switch',
    'calibration',
    'store/reference-faces',
    'adapters/face-model',
  ],
  payments: [
    'payment-schemas',
    'checkout',
    'checkout-urls',
    'payment-settings',
    'reservation-sweep',
    'stripe-events',
    'store/checkout-tokens',
    'adapters/stripe-payments',
  ],
  photos: [
    'photo-schemas',
    'upload-schemas',
    'inbox-uploads',
    'ingest-photo',
    'participant-photos',
    'photo-links',
    'person-photos',
    'pick-photo',
    'send-photo-notices',
    'shoot-review',
    'erase-shoot-photos',
    'place-shoot-photo',
    'store/photos',
    'store/shoot-photos',
    'adapters/camera-card-pdf',
    'adapters/shoot-photo-reader',
  ],
  checkin: ['checkin-schemas', 'checkin-info', 'submit-checkin', 'adapters/selfie-image'],
  'hr-exports': [
    'hr-export-schemas',
    'create-hr-export',
    'get-hr-export',
    'build-hr-export',
    'erase-hr-exports',
    'adapters/hr-export-queue',
  ],
  privacy: ['erasure', 'retention', 'plan-retention', 'retain-queued-galleries', 'adapters/retention-queues'],
  webhooks: [
    'deliver-webhooks',
    'dispatch-events',
    'manage-subscriptions',
    'store/webhook-deliveries',
    'store/webhook-subscriptions',
    'adapters/delivery-queue',
  ],
};

/** Kernel modules with no I/O: the only kernel a pure rule may import. */
const PURE_KERNEL = [
  'clock',
  'domain-error',
  'email-address',
  'field-limits',
  'email-text',
  'identifiers',
  'languages',
  'media-keys',
  'page-cursor',
  'person-link-token',
  'schema-parts',
  'secret-values',
].map((name) => `lib/platform/${name}.ts`);

/** Command-line tools: they reach the table through use cases and public store functions only. */
const CLI_FOLDERS = ['scripts/admin/', 'scripts/import/', 'scripts/photos/', 'scripts/faces/', 'scripts/cli-kit/'];

/** The CLIs themselves: each imports what they share from scripts/cli-kit/, never another's folder. */
const OWN_CLI_FOLDERS = ['scripts/admin/', 'scripts/import/', 'scripts/photos/', 'scripts/faces/'];

const TABLE_MODULES = /^@aws-sdk\/(lib-dynamodb|client-dynamodb)$/;

interface Import {
  specifier: string;
  /** The project file it names (`lib/x/y.ts`), or undefined for a package. */
  target?: string;
}

/** Every import of a file (type-only and dynamic ones included). */
export function importsOf(path: string, source: string): Import[] {
  const specifiers = [
    ...source.matchAll(
      /(?:^|\n)\s*(?:import|export)[^'"]*?from\s+'([^']+)'|import\('([^']+)'\)|^\s*import\s+'([^']+)'/gm,
    ),
  ].map((match) => match[1] ?? match[2] ?? match[3]!);
  return specifiers.map((specifier) => {
    if (specifier.startsWith('#lib/')) return { specifier, target: `lib/${specifier.slice('#lib/'.length)}.ts` };
    if (specifier.startsWith('.'))
      return { specifier, target: normalize(join(dirname(path), specifier)).replace(/(\.ts)?$/, '.ts') };
    return { specifier };
  });
}

/** The code of a file without its comments, so that prose about a rule does not break it. */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

type Place =
  | { kind: 'kernel' }
  | { kind: 'edge' }
  | { kind: 'client' }
  | { kind: 'feature'; feature: Feature; part: 'rules' | 'store' | 'adapters' | 'use case'; inner: string }
  | { kind: 'outside' }
  | { kind: 'unknown' };

function placeOf(path: string): Place {
  if (!path.startsWith('lib/')) return { kind: 'outside' };
  if (path.startsWith('lib/platform/')) return { kind: 'kernel' };
  if (path.startsWith('lib/http/')) return { kind: 'edge' };
  if (path.startsWith('lib/client/')) return { kind: 'client' };
  const [, folder, ...rest] = path.split('/');
  const feature = FEATURES.find((name) => name === folder);
  if (!feature || rest.length === 0) return { kind: 'unknown' };
  const inner = rest.join('/').replace(/\.ts$/, '');
  const part =
    rest.length > 1 && ['rules', 'store', 'adapters'].includes(rest[0]!)
      ? (rest[0] as 'rules' | 'store' | 'adapters')
      : 'use case';
  if (part === 'use case' && rest.length > 1) return { kind: 'unknown' };
  return { kind: 'feature', feature, part, inner };
}

function isPublic(place: Extract<Place, { kind: 'feature' }>): boolean {
  return place.part === 'rules' || PUBLIC_FACES[place.feature].includes(place.inner);
}

/** Checks every rule over the tree; an empty list means the layout holds. */
export function checkArchitecture(tree: SourceTree): Violation[] {
  const violations: Violation[] = [];
  const report = (rule: RuleName, path: string, detail: string) => violations.push({ rule, path, detail });
  const featureEdges = new Map<Feature, Map<Feature, string>>();
  const cliEdges = new Map<string, Map<string, string>>();

  for (const [path, source] of tree) {
    const own = placeOf(path);
    if (own.kind === 'unknown')
      report(
        'known-place',
        path,
        'lib/ holds the kernel (platform), the edge (http), the client and one folder per feature (rules/, store/, adapters/, use cases)',
      );
    const code = withoutComments(source);

    for (const { specifier, target } of importsOf(path, source)) {
      if (!target) {
        if (own.kind === 'feature' && own.part === 'rules' && specifier.startsWith('@aws-sdk/'))
          report('pure-rules', path, `imports ${specifier}`);
        if (
          TABLE_MODULES.test(specifier) &&
          own.kind !== 'kernel' &&
          !(own.kind === 'feature' && own.part === 'store') &&
          !path.startsWith('scripts/local/') &&
          !path.startsWith('scripts/bench/')
        )
          report(
            CLI_FOLDERS.some((folder) => path.startsWith(folder)) ? 'cli-through-use-cases' : 'table-in-stores',
            path,
            `imports ${specifier}`,
          );
        continue;
      }
      const imported = placeOf(target);
      if (path.startsWith('scripts/') && target.startsWith('test/'))
        report('bench-without-test-support', path, `imports ${target}`);
      if (
        own.kind === 'kernel' &&
        (imported.kind === 'feature' || imported.kind === 'edge' || imported.kind === 'client')
      )
        report('kernel-below-features', path, `imports ${target}`);
      if ((own.kind === 'kernel' || own.kind === 'feature') && imported.kind === 'edge')
        report('edge-above-features', path, `imports ${target}`);
      if (own.kind === 'feature' && own.part === 'rules') {
        const pure = (imported.kind === 'feature' && imported.part === 'rules') || PURE_KERNEL.includes(target);
        if (!pure) report('pure-rules', path, `imports ${target}`);
      }
      // Adapters of table records (the stream) may read the key prefixes; only a store reaches the table itself.
      const readsKeysOnly =
        own.kind === 'feature' && own.part === 'adapters' && target === 'lib/platform/table/keys.ts';
      if (target.startsWith('lib/platform/table/') && own.kind === 'feature' && own.part !== 'store' && !readsKeysOnly)
        report('table-in-stores', path, `imports ${target}`);
      if (
        target.startsWith('lib/platform/table/') &&
        target !== 'lib/platform/table/store-errors.ts' &&
        CLI_FOLDERS.some((folder) => path.startsWith(folder))
      )
        report('cli-through-use-cases', path, `imports ${target}`);
      const ownCli = OWN_CLI_FOLDERS.find((folder) => path.startsWith(folder));
      const importedCli = OWN_CLI_FOLDERS.find((folder) => target.startsWith(folder));
      if (ownCli && importedCli && ownCli !== importedCli)
        report('cli-own-folder', path, `imports ${target}; what the CLIs share belongs in scripts/cli-kit/`);
      if (
        CLI_FOLDERS.some((folder) => path.startsWith(folder)) &&
        CLI_FOLDERS.some((folder) => target.startsWith(folder))
      ) {
        const edges = cliEdges.get(path) ?? new Map<string, string>();
        edges.set(target, `${path} imports ${target}`);
        cliEdges.set(path, edges);
      }
      if (
        imported.kind === 'feature' &&
        !(own.kind === 'feature' && own.feature === imported.feature) &&
        !path.startsWith('test/')
      ) {
        if (!isPublic(imported))
          report('public-face', path, `imports ${target}, which is not on the public face of ${imported.feature}`);
        if (own.kind === 'feature') {
          const edges = featureEdges.get(own.feature) ?? new Map<Feature, string>();
          if (!edges.has(imported.feature)) edges.set(imported.feature, `${path} imports ${target}`);
          featureEdges.set(own.feature, edges);
        }
      }
    }

    if (path !== 'lib/platform/table/keys.ts') {
      for (const match of code.matchAll(/['"`]([A-Z][A-Z0-9_]*#)/g))
        report('key-prefix', path, `writes the key prefix ${match[1]} outside lib/platform/table/keys.ts`);
    }
    const testsErrorNames =
      own.kind !== 'kernel' &&
      (path.startsWith('lib/') ||
        path.startsWith('functions/') ||
        CLI_FOLDERS.some((folder) => path.startsWith(folder)));
    if (testsErrorNames) {
      for (const match of code.matchAll(/['"`](\w+Exception|\w+Rejected)['"`]/g))
        report('sdk-error-name', path, `tests the SDK error name ${match[1]} outside the kernel`);
    }
  }

  for (const cycle of cyclesOf(featureEdges)) report('feature-cycle', `lib/${cycle[0]}`, cycle.join(' → '));
  for (const cycle of cyclesOf(cliEdges)) report('cli-cycle', cycle[0]!, cycle.join(' → '));
  return violations;
}

/** Each cycle of a graph (features, or the modules of the CLIs) once, as the nodes along it (first repeated last). */
function cyclesOf<Node extends string>(edges: ReadonlyMap<Node, ReadonlyMap<Node, string>>): Node[][] {
  const cycles: Node[][] = [];
  const seen = new Set<string>();
  const walk = (start: Node, at: Node, path: Node[]) => {
    for (const next of edges.get(at)?.keys() ?? []) {
      if (next === start) {
        const key = [...path].sort().join(',');
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push([...path, start]);
        }
      } else if (!path.includes(next)) walk(start, next, [...path, next]);
    }
  };
  for (const node of edges.keys()) walk(node, node, [node]);
  return cycles;
}
