import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ALL_HANDLERS, REPLAYABLE_HANDLERS, TRIGGERED_HANDLERS, triggeredHandlers } from '#lib/http/handlers';
import { type Route, routes } from '#lib/http/routes';

const ROOT = join(__dirname, '..', '..', '..');
const FUNCTIONS = join(ROOT, 'functions');

/** Every handler file under functions/, as `<folder>/<name>` without extension. */
function handlerFiles(directory = FUNCTIONS): string[] {
  return readdirSync(directory).flatMap((entry) => {
    const path = join(directory, entry);
    if (statSync(path).isDirectory()) return handlerFiles(path);
    return entry.endsWith('.ts') ? [relative(FUNCTIONS, path).replace(/\.ts$/, '')] : [];
  });
}

describe('the handler registry (lib/http/handlers.ts)', () => {
  it('names every file under functions/, and nothing else', () => {
    // Act
    const files = handlerFiles();
    // Assess
    expect([...files].sort()).toEqual([...ALL_HANDLERS].sort());
  });

  it('names each function once', () => {
    // Assess
    expect(new Set(ALL_HANDLERS).size).toBe(ALL_HANDLERS.length);
    const httpHandlers = new Set((routes as readonly Route[]).map((route) => route.handler));
    expect(TRIGGERED_HANDLERS.filter((handler) => httpHandlers.has(handler))).toEqual([]);
  });

  it.each(ALL_HANDLERS)(
    'keeps %s in the functions/ folder of a lib/ folder, or of one of its sub-features',
    (handler) => {
      // Prepare
      const folders = handler.split('/').slice(0, -1);
      // Assess
      expect(folders.length === 1 || folders.length === 2).toBe(true);
      expect(existsSync(join(ROOT, 'lib', ...folders))).toBe(true);
      expect(['rules', 'store', 'adapters']).not.toContain(folders[1]);
    },
  );

  it('gives every triggered function at least one trigger, and keeps failures only of some of them', () => {
    // Assess
    for (const entry of triggeredHandlers) expect(entry.triggers.length).toBeGreaterThan(0);
    expect(REPLAYABLE_HANDLERS.every((handler) => (TRIGGERED_HANDLERS as string[]).includes(handler))).toBe(true);
    expect([...REPLAYABLE_HANDLERS].sort()).toEqual([
      'faces/describe-reference-faces',
      'photos/notices/send-photo-notices',
      'photos/sorting/ingest-photo',
      'webhooks/dispatch-events',
    ]);
  });
});
