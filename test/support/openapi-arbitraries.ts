import fc from 'fast-check';

type Json = Record<string, any>;

/**
 * fast-check arbitraries of the values a JSON Schema of the OpenAPI document takes (issue 31):
 * what a tool that trusts the document would send. They cover the keywords the document uses
 * (type, const, enum, anyOf/oneOf, properties/required, additionalProperties, items with
 * minItems/maxItems, minLength/maxLength/pattern, minimum/maximum); `known` gives, by member or
 * parameter name, real values of the world under test, drawn more often than invented ones so
 * that enough requests reach the endpoints themselves.
 */
export interface SchemaArbitraryOptions {
  /** The document, for `$ref`. */
  document: Json;
  /** Real values by property or parameter name. */
  known?: Readonly<Record<string, readonly unknown[]>>;
}

/** Longest invented text: long enough for every limit the document states to be met either way. */
const TEXT_MAX = 40;
/** Most array entries beyond the minimum: bodies stay small and requests fast. */
const EXTRA_ITEMS = 3;

function resolve(schema: Json, document: Json): Json {
  if (!schema.$ref) return schema;
  const path = String(schema.$ref).replace(/^#\//, '').split('/');
  return resolve(
    path.reduce((node: Json, key) => node[key], document),
    document,
  );
}

function stringArbitrary(schema: Json): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? Math.max(minLength, TEXT_MAX);
  const fits = (value: string) => value.length >= minLength && value.length <= maxLength;
  // A pattern bounds its own length: TEXT_MAX bounds only free text (a pattern longer than it
  // would make the filter spin for ever).
  const fitsDeclared = (value: string) =>
    value.length >= minLength && value.length <= (schema.maxLength ?? Number.POSITIVE_INFINITY);
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern, 'u')).filter(fitsDeclared);
  return fc
    .string({ unit: 'grapheme', minLength, maxLength: Math.min(maxLength, Math.max(minLength, TEXT_MAX)) })
    .filter(fits);
}

function numberArbitrary(schema: Json, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? (integer ? -1_000_000 : -1e9);
  const max = schema.maximum ?? (integer ? 1_000_000 : 1e9);
  if (integer) return fc.oneof(fc.constantFrom(min, max), fc.integer({ min, max }));
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

/** Values `schema` takes; `name` is the member or parameter they are for (for `known`). */
export function schemaArbitrary(input: Json, options: SchemaArbitraryOptions, name?: string): fc.Arbitrary<unknown> {
  const schema = resolve(input, options.document);
  const invented = inventedArbitrary(schema, options);
  const known = name === undefined ? undefined : options.known?.[name];
  if (!known?.length) return invented;
  return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: invented });
}

function inventedArbitrary(schema: Json, options: SchemaArbitraryOptions): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  const options_ = schema.anyOf ?? schema.oneOf;
  if (options_) {
    // Keywords beside anyOf (a pattern that holds for the string option) apply to every option.
    const { anyOf: _anyOf, oneOf: _oneOf, description: _description, ...shared } = schema;
    return fc.oneof(
      ...(options_ as Json[]).map((option) => {
        const resolved = resolve(option, options.document);
        const required = [...new Set([...(shared.required ?? []), ...(resolved.required ?? [])])];
        return schemaArbitrary({ ...resolved, ...shared, ...(required.length > 0 ? { required } : {}) }, options);
      }),
    );
  }
  switch (schema.type) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.min(schema.maxItems ?? minLength + EXTRA_ITEMS, minLength + EXTRA_ITEMS);
      return fc.array(schemaArbitrary(schema.items ?? {}, options), { minLength, maxLength });
    }
    case 'object': {
      const properties: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [member, propertySchema] of Object.entries((schema.properties ?? {}) as Record<string, Json>)) {
        properties[member] = schemaArbitrary(propertySchema, options, member);
      }
      const members = fc.record(properties, { requiredKeys: (schema.required ?? []) as string[] });
      if (!schema.additionalProperties || typeof schema.additionalProperties !== 'object') return members;
      const extra = fc.dictionary(
        fc.string({ minLength: 1, maxLength: 12 }),
        schemaArbitrary(schema.additionalProperties, options),
        { maxKeys: 2 },
      );
      return fc.tuple(extra, members).map(([more, given]) => ({ ...more, ...given }));
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}
