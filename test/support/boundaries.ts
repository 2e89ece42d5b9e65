import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';

/**
 * The boundaries of docs/architecture.md#boundaries, read from the real import graph by
 * dependency-cruiser (.dependency-cruiser.cjs), plus what no import graph shows: where a file
 * sits, cycles between features and between the sub-features of one, and two rules about the
 * text of the code (table key prefixes and SDK error names), read with the TypeScript scanner
 * rather than a regular expression.
 */
export const REPOSITORY = join(__dirname, '..', '..');
const CONFIG = join(REPOSITORY, '.dependency-cruiser.cjs');
const DEPCRUISE = join(REPOSITORY, 'node_modules', '.bin', 'depcruise');
const runFile = promisify(execFile);

export interface Violation {
  rule: string;
  from: string;
  to: string;
}

export interface Graph {
  violations: Violation[];
  /** Each module (path from the root) and the project modules it imports. */
  modules: Map<string, string[]>;
}

interface CruiseResult {
  modules: { source: string; dependencies: { resolved: string }[] }[];
  summary: { violations: { rule: { name: string }; from: string; to: string }[] };
}

/** Cruises `folders` of the tree at `root` with the project's rules. */
export async function cruise(root: string, folders: readonly string[]): Promise<Graph> {
  const { stdout } = await runFile(
    DEPCRUISE,
    ['--config', CONFIG, '--output-type', 'json', '--no-progress', ...folders],
    { cwd: root, env: { ...process.env, BOUNDARIES_ROOT: root }, maxBuffer: 256 * 1024 * 1024 },
  ).catch((error: { stdout?: string }) => {
    // depcruise exits non-zero when it finds violations; its JSON is still the answer.
    if (!error.stdout) throw error;
    return { stdout: error.stdout };
  });
  const result = JSON.parse(stdout) as CruiseResult;
  return {
    violations: result.summary.violations.map((found) => ({ rule: found.rule.name, from: found.from, to: found.to })),
    modules: new Map(
      result.modules.map((module) => [module.source, module.dependencies.map((dependency) => dependency.resolved)]),
    ),
  };
}

/**
 * A tree of source files written to a temporary folder beside the project's package.json and
 * tsconfig.json (for `#lib/*`) and its node_modules (so that packages resolve as in the project).
 */
export function writeTree(files: Record<string, string>): { root: string; remove: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'boundaries-'));
  for (const file of ['package.json', 'tsconfig.json'])
    writeFileSync(join(root, file), readFileSync(join(REPOSITORY, file)));
  symlinkSync(join(REPOSITORY, 'node_modules'), join(root, 'node_modules'), 'dir');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

const NOT_FEATURES = new Set(['platform', 'http', 'client']);
const featureOf = (path: string) => {
  const folder = /^lib\/([^/]+)\//.exec(path)?.[1];
  return folder && !NOT_FEATURES.has(folder) ? folder : undefined;
};

const PARTS = ['rules', 'store', 'adapters'] as const;
type FeaturePart = (typeof PARTS)[number];

interface FeaturePlace {
  feature: string;
  subFeature?: string;
  part: FeaturePart | 'use case';
}

/**
 * Where a file of a feature sits: its feature; its sub-feature, when it is in one of the
 * feature's folders other than rules/, store/ and adapters/ (lib/photos/sorting/); and its part.
 * Undefined for a file of no feature, or deeper than a sub-feature's part.
 */
export function placeInFeature(path: string): FeaturePlace | undefined {
  const [root, feature, ...rest] = path.split('/');
  const folders = rest.slice(0, -1);
  if (root !== 'lib' || !feature || rest.length === 0 || NOT_FEATURES.has(feature) || !path.endsWith('.ts'))
    return undefined;
  const isPart = (folder: string | undefined): folder is FeaturePart => PARTS.includes(folder as FeaturePart);
  const subFeature = folders[0] !== undefined && !isPart(folders[0]) ? folders[0] : undefined;
  const inSub = subFeature === undefined ? folders : folders.slice(1);
  const [part, ...deeper] = inSub;
  if (deeper.length > 0 || (part !== undefined && !isPart(part))) return undefined;
  return { feature, ...(subFeature === undefined ? {} : { subFeature }), part: part ?? 'use case' };
}

/**
 * Files of lib/ outside its known places: the kernel, the edge, the client, and per feature (a
 * folder with a public.ts) its use cases, rules/, store/ and adapters/, at its top or in one
 * sub-feature folder that holds the same parts (lib/photos/sorting/rules/).
 */
export function filesOutOfPlace(paths: Iterable<string>): string[] {
  const all = [...paths];
  const features = new Set(all.map((path) => /^lib\/([^/]+)\/public\.ts$/.exec(path)?.[1]).filter(Boolean));
  return all.filter((path) => {
    if (!path.startsWith('lib/') || /^lib\/(platform|http|client)\//.test(path)) return false;
    const place = placeInFeature(path);
    return !place || !features.has(place.feature);
  });
}

/** Each cycle between features (a feature's module importing another's, and back), as the features along it. */
export function featureCycles(modules: ReadonlyMap<string, readonly string[]>): string[][] {
  return cyclesOf(modules, featureOf);
}

/**
 * Each cycle between the sub-features of a feature (lib/photos/access/ importing lib/photos/notices/,
 * and back), as the sub-features along it (`photos/access`); the files at the feature's top are
 * one more unit (`photos`). Features are read one by one: a cycle through another feature is
 * featureCycles' to find.
 */
export function subFeatureCycles(modules: ReadonlyMap<string, readonly string[]>): string[][] {
  const unitOf = (path: string) => {
    const place = placeInFeature(path);
    return place && (place.subFeature === undefined ? place.feature : `${place.feature}/${place.subFeature}`);
  };
  const sameFeature = (from: string, to: string) => from.split('/')[0] === to.split('/')[0];
  return cyclesOf(modules, unitOf, sameFeature);
}

/** The cycles between the units `unitOf` puts modules in, each once, over the edges `counts` keeps. */
function cyclesOf(
  modules: ReadonlyMap<string, readonly string[]>,
  unitOf: (path: string) => string | undefined,
  counts: (from: string, to: string) => boolean = () => true,
): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const [source, targets] of modules) {
    const from = unitOf(source);
    if (!from) continue;
    for (const target of targets) {
      const to = unitOf(target);
      if (to && to !== from && counts(from, to)) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
  }
  const cycles: string[][] = [];
  const seen = new Set<string>();
  const walk = (start: string, at: string, path: string[]) => {
    for (const next of edges.get(at) ?? []) {
      if (next === start) {
        const key = [...path].sort().join(',');
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push([...path, start]);
        }
      } else if (!path.includes(next)) walk(start, next, [...path, next]);
    }
  };
  for (const unit of edges.keys()) walk(unit, unit, [unit]);
  return cycles;
}

export interface TextFinding {
  rule: 'key-prefix' | 'sdk-error-name';
  path: string;
  text: string;
}

/** The modules that write key prefixes: the kernel's key scheme, and each feature's own keys. */
const KEYS_MODULE = /^lib\/(platform\/table|[^/]+\/(?:[^/]+\/)?store)\/keys\.ts$/;

/**
 * What the code's string and template literals say that only the kernel may say: a table key
 * prefix (`PERSON#`, `${x}#PHOTOS#`) outside a keys module, an SDK error name
 * (`TransactionCanceledException`) outside the kernel. Comments are not literals, so prose about
 * a rule never breaks it. A feature's adapters may name the errors of the outside service they
 * wrap (SES's rejections in photos' email sender): that service is theirs alone.
 */
export function textFindings(path: string, source: string): TextFinding[] {
  const findings: TextFinding[] = [];
  const wrapsAnSdk = path.startsWith('lib/platform/') || placeInFeature(path)?.part === 'adapters';
  const checksErrorNames =
    !wrapsAnSdk && /^(lib|functions|scripts\/(admin|import|photos|faces|studio|cli-kit))\//.test(path);
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, false);
  const visit = (node: ts.Node) => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      const text = node.text;
      if (!KEYS_MODULE.test(path))
        for (const match of text.matchAll(/(?:^|[^A-Za-z0-9_])([A-Z][A-Z0-9_]*#)/g))
          findings.push({ rule: 'key-prefix', path, text: match[1]! });
      if (checksErrorNames && /^\w+(Exception|Rejected)$/.test(text))
        findings.push({ rule: 'sdk-error-name', path, text });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return findings;
}

/**
 * The domain error reasons a module declares: the members of each `interface DomainErrorReasons`
 * in it (the kernel's, or a feature's addition to it in its rules/refusals.ts).
 */
export function declaredRefusals(path: string, source: string): string[] {
  const reasons: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isInterfaceDeclaration(node) && node.name.text === 'DomainErrorReasons')
      for (const member of node.members)
        if (member.name && ts.isIdentifier(member.name)) reasons.push(member.name.text);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true));
  return reasons;
}
