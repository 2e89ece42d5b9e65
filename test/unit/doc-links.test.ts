import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';

/**
 * Every link of the README and of every .md under docs/ stays inside the repository and leads somewhere:
 * relative, to a file or folder that exists, and with an anchor only to a heading that exists.
 * The repository is self-contained, so links to other sites are refused; links to the local
 * API (`http://localhost…`) are the one exception.
 */

const ROOT = resolve(__dirname, '..', '..');

const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

/**
 * The lines of a markdown text with those of fenced code blocks (``` or ~~~) blanked, so that
 * line numbers stay those of the file.
 */
function unfencedLines(text: string): string[] {
  let fence: string | undefined;
  return text.split('\n').map((line) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined) {
      if (marker === undefined) return line;
      fence = marker;
      return '';
    }
    // A fence closes with the same character, at least as many times, and nothing after it.
    if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker)
      fence = undefined;
    return '';
  });
}

/** The lines outside fenced code blocks, with inline code blanked too: neither holds links. */
function proseLines(text: string): string[] {
  return unfencedLines(text).map((line) => line.replace(/(`+)(?:(?!\1).)+?\1/g, (code) => ' '.repeat(code.length)));
}

/** GitHub's anchor of a heading: lowercase, punctuation other than '-' and '_' dropped, each space a '-'. */
function headingSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images: their text
    .replace(/[`*]/g, '') // code and emphasis marks
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

/** The anchors of a markdown text's headings; a repeated heading gets -1, -2, … as on GitHub. */
function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of unfencedLines(text)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (!heading) continue;
    const slug = headingSlug(heading[1]!);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

interface Link {
  line: number;
  target: string;
}

/** Inline links and images `[text](target)`, reference definitions `[label]: target`, and references without a definition. */
function linksOf(text: string): { links: Link[]; undefinedReferences: Link[] } {
  const lines = proseLines(text);
  const links: Link[] = [];
  const definitions = new Set<string>();
  lines.forEach((line, index) => {
    const definition = /^ {0,3}\[([^\]]+)\]:\s*<?([^\s>]+)>?/.exec(line);
    if (definition) {
      definitions.add(definition[1]!.toLowerCase());
      links.push({ line: index + 1, target: definition[2]! });
      return;
    }
    for (const match of line.matchAll(/\]\(\s*<?([^\s)>]*)>?(?:\s+["'(][^)]*)?\)/g))
      links.push({ line: index + 1, target: match[1]! });
  });
  const undefinedReferences: Link[] = [];
  lines.forEach((line, index) => {
    for (const match of line.matchAll(/\[([^\]]+)\]\[([^\]]*)\]/g)) {
      const label = (match[2] || match[1])!.toLowerCase();
      if (!definitions.has(label)) undefinedReferences.push({ line: index + 1, target: `[${label}]` });
    }
  });
  return { links, undefinedReferences };
}

/** What is wrong with each link of a document (its path relative to the repository root). */
function linkProblems(document: string, text: string): string[] {
  const problems: string[] = [];
  const { links, undefinedReferences } = linksOf(text);
  for (const { line, target } of undefinedReferences)
    problems.push(`${document}:${line}: reference ${target} has no definition`);
  for (const { line, target } of links) {
    const where = `${document}:${line}: ${target || '(empty)'}`;
    if (target === '') {
      problems.push(`${where}: empty link`);
      continue;
    }
    if (/^http:\/\/localhost[:/]/.test(target) || target === 'http://localhost') continue;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) {
      problems.push(`${where}: points outside the repository (only relative links and http://localhost are allowed)`);
      continue;
    }
    if (target.startsWith('/')) {
      problems.push(`${where}: absolute path; write it relative to ${document}`);
      continue;
    }
    const hash = target.indexOf('#');
    const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
    const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
    const resolved = pathPart === '' ? join(ROOT, document) : resolve(ROOT, dirname(document), pathPart);
    const inside = relative(ROOT, resolved);
    if (inside.startsWith('..') || isAbsolute(inside)) {
      problems.push(`${where}: resolves outside the repository`);
      continue;
    }
    if (pathPart !== '' && !existsSync(resolved)) {
      problems.push(`${where}: ${inside} does not exist`);
      continue;
    }
    if (anchor === undefined) continue;
    if (!resolved.endsWith('.md')) {
      problems.push(`${where}: an anchor can only be checked on a markdown file`);
      continue;
    }
    const targetText = pathPart === '' ? text : readFileSync(resolved, 'utf8');
    if (!headingAnchors(targetText).has(anchor)) problems.push(`${where}: ${inside} has no heading #${anchor}`);
  }
  return problems;
}

describe('documentation links', () => {
  describe.each(DOCUMENTS)('%s', (document) => {
    it('links only to files, folders and headings inside the repository', () => {
      // Prepare
      const text = readFileSync(join(ROOT, document), 'utf8');

      // Act
      const problems = linkProblems(document, text);

      // Assess
      expect(problems).toEqual([]);
    });
  });

  describe('the link check itself', () => {
    it.each([
      ['a missing file', '[x](missing-file.md)', 'does not exist'],
      ['a missing heading', '[x](api-reference.md#no-such-heading)', 'has no heading'],
      ['a missing heading of the same file', '# Title\n\n[x](#other-title)', 'has no heading'],
      ['another site', '[x](https://example.com/)', 'outside the repository'],
      ['plain http elsewhere', '[x](http://example.com/)', 'outside the repository'],
      ['a path leaving the repository', '[x](../../outside.md)', 'resolves outside the repository'],
      ['an absolute path', '[x](/etc/hosts)', 'absolute path'],
      ['a reference definition to another site', '[x][site]\n\n[site]: https://example.com/', 'outside the repository'],
      ['a reference without a definition', '[x][nowhere]', 'has no definition'],
      ['an anchor on a source file', '[x](../lib/http/routes.ts#L1)', 'only be checked on a markdown file'],
    ])('refuses %s', (_name, markdown, problem) => {
      // Act
      const problems = linkProblems('docs/example.md', markdown);

      // Assess
      expect(problems).toHaveLength(1);
      expect(problems[0]).toContain(problem);
    });

    it.each([
      ['a file beside it', '[x](api-reference.md)'],
      ['a folder', '[x](../lib/http)'],
      ['a heading of another document', '[x](payments.md#order-lifecycle)'],
      ['a heading of its own', '# Rate limit (per key)\n\n[x](#rate-limit-per-key)'],
      ['the local API', '[x](http://localhost:3000/docs)'],
      ['a link shown as code', '`[x](https://example.com/)`'],
      ['a link in a fenced block', '```md\n[x](https://example.com/)\n```'],
    ])('accepts %s', (_name, markdown) => {
      // Assess
      expect(linkProblems('docs/example.md', markdown)).toEqual([]);
    });

    it('makes anchors the way GitHub does', () => {
      // Assess
      expect(headingSlug('GET /group-shoot/checkin/{token} (public)')).toBe('get-group-shootcheckintoken-public');
      expect(headingSlug('Admin CLI: `npm run admin`')).toBe('admin-cli-npm-run-admin');
      expect(headingSlug('Idempotency keys')).toBe('idempotency-keys');
    });
  });
});
