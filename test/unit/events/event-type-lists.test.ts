import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVENT_TYPES } from '#lib/events/rules/event-catalogue';

/**
 * The lists of webhook event types in the docs stay complete (issue 40: `hr_export.ready` was
 * missing from them). A list is a run of event types separated by commas (backticks and line
 * breaks allowed); one that names at least MIN_NAMES_OF_A_FULL_LIST of them is meant as the whole
 * catalogue and must name every type. Shorter runs are deliberate subsets (the events erasure
 * removes, those that name no person) and are left alone.
 */

const ROOT = join(__dirname, '..', '..', '..');
const DOCUMENTS = ['README.md', 'docs/events.md', 'docs/admin-cli.md', 'docs/api-reference.md'];
const MIN_NAMES_OF_A_FULL_LIST = 6;

const TYPE = '`?[a-z_]+\\.[a-z_]+`?';
const RUN = new RegExp(`${TYPE}(?:,\\s+${TYPE})+`, 'g');

/** Each comma-separated run of event types in `text` that names MIN_NAMES_OF_A_FULL_LIST or more, with the types it lacks. */
function incompleteEventTypeLists(text: string): { list: string; missing: string[] }[] {
  return [...text.matchAll(RUN)]
    .map((run) => run[0])
    .map((list) => ({ list, named: new Set(list.split(/,\s+/).map((name) => name.replaceAll('`', ''))) }))
    .filter(({ named }) => EVENT_TYPES.filter((type) => named.has(type)).length >= MIN_NAMES_OF_A_FULL_LIST)
    .map(({ list, named }) => ({ list, missing: EVENT_TYPES.filter((type) => !named.has(type)) }))
    .filter(({ missing }) => missing.length > 0);
}

describe('lists of webhook event types in the docs', () => {
  it.each(DOCUMENTS)('%s names every event type in each full list', (document) => {
    // Prepare
    const text = readFileSync(join(ROOT, document), 'utf8');

    // Act + Assess
    expect(incompleteEventTypeLists(text)).toEqual([]);
  });

  it('finds a full list that lacks a type, and leaves a short subset alone', () => {
    // Prepare
    const stale = EVENT_TYPES.filter((type) => type !== 'hr_export.ready')
      .map((type) => `\`${type}\``)
      .join(', ');
    const subset = '(`person.created`, `checkin.completed`, `order.paid`)';

    // Act
    const found = incompleteEventTypeLists(`Known: ${stale}.\nErasure removes ${subset}.`);

    // Assess
    expect(found).toEqual([{ list: stale, missing: ['hr_export.ready'] }]);
  });
});
