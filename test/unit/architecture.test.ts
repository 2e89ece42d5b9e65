import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The layering of lib/ and functions/ (docs/architecture.md): a module imports only from its
 * own layer or a lower one. Domain rules know nothing of AWS or HTTP; data access and adapters
 * know the domain; use cases combine them; the HTTP edge maps their errors to API errors; the
 * functions are thin handlers on top.
 */
const ROOT = join(__dirname, '..', '..');

const LAYERS: readonly { name: string; rank: number; matches: (path: string) => boolean }[] = [
  { name: 'foundation', rank: 0, matches: (path) => ['lib/clock.ts', 'lib/config.ts'].includes(path) },
  { name: 'domain', rank: 1, matches: (path) => path.startsWith('lib/domain/') },
  { name: 'contract', rank: 2, matches: (path) => ['lib/logger.ts', 'lib/api-schemas.ts', 'lib/routes.ts'].includes(path) },
  { name: 'data and adapters', rank: 3, matches: (path) => path.startsWith('lib/db/') || path.startsWith('lib/adapters/') },
  {
    name: 'use cases',
    rank: 4,
    matches: (path) => ['lib/checkin/', 'lib/integration/', 'lib/payments/', 'lib/galleries/', 'lib/media/', 'lib/privacy/', 'lib/events/', 'lib/photos/'].some((folder) => path.startsWith(folder)),
  },
  { name: 'HTTP edge', rank: 5, matches: (path) => path.startsWith('lib/http/') || path === 'lib/errors.ts' },
  { name: 'functions', rank: 6, matches: (path) => path.startsWith('functions/') },
  { name: 'client', rank: 6, matches: (path) => path.startsWith('lib/client/') },
];

function layerOf(path: string) {
  const layer = LAYERS.find((candidate) => candidate.matches(path));
  if (!layer) throw new Error(`${path} belongs to no layer: add it to LAYERS and docs/architecture.md`);
  return layer;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(folder, entry.name)) : entry.name.endsWith('.ts') ? [join(folder, entry.name)] : [],
  );
}

/** The project modules a file imports (type-only imports included), as paths from the root. */
function projectImports(path: string): string[] {
  const source = readFileSync(join(ROOT, path), 'utf8');
  const specifiers = [...source.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+'([^']+)'|import\('([^']+)'\)/g)].map((match) => match[1] ?? match[2]!);
  return specifiers.flatMap((specifier) => {
    if (specifier.startsWith('#lib/')) return [`lib/${specifier.slice('#lib/'.length)}.ts`];
    if (specifier.startsWith('.')) return [relative(ROOT, resolve(ROOT, dirname(path), specifier)) + '.ts'];
    return [];
  });
}

const FILES = [...sourceFiles('lib'), ...sourceFiles('functions')];

describe('layering', () => {
  it('finds the modules it checks', () => {
    expect(FILES).toEqual(expect.arrayContaining(['lib/domain/order-lifecycle.ts', 'lib/db/order-transitions.ts', 'functions/checkin/post-group-shoot.ts']));
    expect(projectImports('lib/db/order-transitions.ts')).toEqual(expect.arrayContaining(['lib/domain/order-lifecycle.ts', 'lib/db/orders.ts']));
  });

  it.each(FILES)('%s imports nothing from a higher layer', (path) => {
    const own = layerOf(path);
    const upward = projectImports(path)
      .map((imported) => ({ imported, layer: layerOf(imported) }))
      .filter(({ layer }) => layer.rank > own.rank)
      .map(({ imported, layer }) => `${imported} (${layer.name}) from ${own.name}`);
    expect(upward).toEqual([]);
  });

  it.each(FILES.filter((path) => path.startsWith('lib/domain/') || path.startsWith('lib/db/')))(
    '%s neither raises ApiError nor reaches into lib/http',
    (path) => {
      const source = readFileSync(join(ROOT, path), 'utf8');
      expect(source).not.toMatch(/\bApiError\b|#lib\/http|lib\/errors/);
    },
  );
});
