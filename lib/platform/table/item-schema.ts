import * as v from 'valibot';
import { CorruptItemError } from '#lib/platform/table/store-errors';

/**
 * An item as the document client hands it over: attribute names to plain values, not yet
 * checked. A store turns it into its entity with `fromItem`, which checks it with parseItem.
 */
export type StoredItem = Record<string, unknown>;

/**
 * The item's attributes as its entity's schema reads them, or a CorruptItemError that names the
 * entity and the first attribute that is wrong. Schemas are built once, at module level: a list
 * of persons parses 10,000 items.
 */
export function parseItem<const TSchema extends v.GenericSchema>(
  entity: string,
  schema: TSchema,
  item: unknown,
): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, item, { abortEarly: true });
  if (result.success) return result.output;
  const [issue] = result.issues;
  throw new CorruptItemError(entity, v.getDotPath(issue) ?? 'item', issue.expected);
}

const isPlainObject = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A nested settings object (a gallery's limits, a tenant's branding) that the item holds as a
 * map: checked to be one, its members as the input schemas checked them when it was written.
 */
export function storedObject<TObject extends object>(): v.GenericSchema<TObject> {
  return v.custom<TObject>(isPlainObject, 'an object');
}

const itemKeySchema = v.object({ pk: v.string(), sk: v.string() });

/** The table key of an item as read (for a delete or an update of what a query found). */
export function keyOfItem(item: StoredItem): { pk: string; sk: string } {
  const { pk, sk } = parseItem('item key', itemKeySchema, item);
  return { pk, sk };
}
