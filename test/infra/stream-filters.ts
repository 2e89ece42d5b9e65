/**
 * Lambda's event filtering, as far as the stack's stream filters use it: for the tests that show
 * which records of the table's stream start a function.
 */

/** Whether a Lambda filter pattern matches a record (exact values and `prefix` only; anything else throws). */
export function matchesPattern(pattern: Record<string, unknown>, record: unknown): boolean {
  if (typeof record !== 'object' || record === null) return false;
  return Object.entries(pattern).every(([key, expected]) => {
    const actual = (record as Record<string, unknown>)[key];
    if (!Array.isArray(expected))
      return (
        typeof expected === 'object' && expected !== null && matchesPattern(expected as Record<string, unknown>, actual)
      );
    return expected.some((allowed) => {
      if (typeof allowed !== 'object' || allowed === null) return actual === allowed;
      if (Object.keys(allowed).join() !== 'prefix')
        throw new Error(`filter operator ${Object.keys(allowed).join()} is not understood by this check`);
      return typeof actual === 'string' && actual.startsWith((allowed as { prefix: string }).prefix);
    });
  });
}

/** The filter patterns of an event source mapping's properties, parsed. */
export function filterPatternsOf(mapping: Record<string, any>): Record<string, unknown>[] {
  return (mapping.FilterCriteria.Filters as { Pattern: string }[]).map((filter) => JSON.parse(filter.Pattern));
}
