import fastJson from 'fast-json-stringify';
import { z } from 'zod';

type JsonSchema = { [key: string]: unknown };

/**
 * `anyOf: [X, {type: 'null'}]`, which is how Zod writes `.nullable()`, as `type: [X's type, 'null']`:
 * fast-json-stringify picks an `anyOf` branch by validating the value against each one (Ajv, per
 * value), while a list of types is a `typeof` test. Only for a branch with one plain type.
 */
function plainNullables(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(plainNullables);
  if (!schema || typeof schema !== 'object') return schema;
  const out: JsonSchema = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, plainNullables(v)]));
  const anyOf = out.anyOf as JsonSchema[] | undefined;
  if (anyOf?.length === 2) {
    const nullAt = anyOf.findIndex((s) => s.type === 'null' && Object.keys(s).length === 1);
    const other = anyOf[1 - nullAt];
    if (nullAt >= 0 && other && typeof other.type === 'string' && !('anyOf' in other)) {
      const { anyOf: _drop, ...rest } = out;
      return { ...rest, ...other, type: [other.type, 'null'] };
    }
  }
  return out;
}

/**
 * A response contract (Zod) compiled to a serialiser (fast-json-stringify) for the hot reads: it writes
 * only the contract's fields, in its order, and throws when a required one is missing, without parsing
 * the value through Zod first. The JSON Schema comes from the contract itself (`z.toJSONSchema`, output
 * side), so there is one definition; a contract Zod cannot express as JSON Schema fails here, at start-up.
 * It checks presence and shape, not formats or refinements: for values the server built itself.
 */
export function compiledSerializer<T extends z.ZodType>(contract: T): (value: z.output<T>) => string {
  const schema = plainNullables(z.toJSONSchema(contract, { io: 'output', target: 'draft-7', unrepresentable: 'throw' }));
  return fastJson(schema as Parameters<typeof fastJson>[0]);
}
