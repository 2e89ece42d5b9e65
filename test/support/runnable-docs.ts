/**
 * The shell blocks of a Markdown document, for the test that runs the README's and the guides'
 * commands as printed (test/integration/docs-commands.test.ts). Every fenced `sh` block carries
 * a marker on the line before its fence, so that none is left unchecked by oversight:
 * `<!-- doc-test: run -->` (the test runs it) or `<!-- doc-test: skip (why) -->`.
 */

/** One fenced shell block. */
export interface ShellBlock {
  /** The fence's line, 1-based. */
  line: number;
  /** `run`, `skip`, or undefined when the block has no marker. */
  marker: 'run' | 'skip' | undefined;
  /** The commands, without the fence and without the indentation of a list item. */
  code: string;
}

const FENCE = /^(\s*)```(sh|bash|shell)\s*$/;
const MARKER = /^\s*<!-- doc-test: (run|skip \(.+\)) -->\s*$/;

/** The shell blocks of `markdown`, in order. */
export function shellBlocksOf(markdown: string): ShellBlock[] {
  const lines = markdown.split('\n');
  const blocks: ShellBlock[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const fence = FENCE.exec(lines[index]!);
    if (!fence) {
      if (/^\s*```/.test(lines[index]!)) index = closingFence(lines, index);
      continue;
    }
    const indentation = fence[1]!.length;
    const end = closingFence(lines, index);
    const marker = MARKER.exec(lines[index - 1] ?? '')?.[1];
    blocks.push({
      line: index + 1,
      marker: marker === undefined ? undefined : marker === 'run' ? 'run' : 'skip',
      code: lines
        .slice(index + 1, end)
        .map((line) => line.slice(Math.min(indentation, line.length - line.trimStart().length)))
        .join('\n'),
    });
    index = end;
  }
  return blocks;
}

/** The index of the fence that closes the block opened at `opening`. */
function closingFence(lines: readonly string[], opening: number): number {
  for (let index = opening + 1; index < lines.length; index += 1) if (/^\s*```\s*$/.test(lines[index]!)) return index;
  throw new Error(`The code block at line ${opening + 1} is not closed`);
}

/**
 * One bash script of a document's runnable blocks, in order, so that a variable set in one is
 * there in the next, as in a terminal. It stops at the first failing command and names on
 * standard error the block it was in.
 */
export function scriptOfRunnableBlocks(file: string, blocks: readonly ShellBlock[]): string {
  return blocks
    .filter((block) => block.marker === 'run')
    .map((block) => `echo '### ${file}:${block.line}' >&2\n${block.code}`)
    .join('\n');
}
