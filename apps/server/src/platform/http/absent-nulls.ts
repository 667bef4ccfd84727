import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  getter?: () => z.ZodType;
};
const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The object schema inside wrappers (optional, nullable, default, a transform's input…), or null. */
function objectIn(s: z.ZodType, depth = 0): Record<string, z.ZodType> | null {
  const d = defOf(s);
  if (d.type === 'object') return d.shape ?? null;
  const inner = d.innerType ?? d.in ?? d.getter?.();
  return inner && depth < 10 ? objectIn(inner, depth + 1) : null;
}

function elementIn(s: z.ZodType, depth = 0): z.ZodType | null {
  const d = defOf(s);
  if (d.type === 'array') return d.element ?? null;
  const inner = d.innerType ?? d.in ?? d.getter?.();
  return inner && depth < 10 ? elementIn(inner, depth + 1) : null;
}

/**
 * One rule for a null where a field is optional, in every request body: it is the field left out. A
 * field that takes null keeps it (in a PATCH, null clears what "left out" keeps); a field that may be
 * left out but is not nullable (`taxId?: string`) gets its absence instead of a 400 about its type.
 * Clients and serializers that write every key, null for none, are then read as they mean it.
 */
export function nullsAsAbsent(schema: z.ZodType, value: unknown, depth = 0): unknown {
  if (depth > 20 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const element = elementIn(schema);
    if (element) for (const item of value) nullsAsAbsent(element, item, depth + 1);
    return value;
  }
  const shape = objectIn(schema);
  if (!shape) return value;
  const fields = value as Record<string, unknown>;
  for (const [key, field] of Object.entries(shape)) {
    if (!Object.hasOwn(fields, key)) continue;
    if (fields[key] === null) {
      if (!field.safeParse(null).success && field.safeParse(undefined).success) delete fields[key];
    } else nullsAsAbsent(field, fields[key], depth + 1);
  }
  return value;
}

/** fastify-type-provider-zod's validator, with `nullsAsAbsent` applied to bodies first. */
export const requestValidator: FastifySchemaCompiler<z.ZodType> = (route) => {
  const validate = validatorCompiler(route);
  return route.httpPart === 'body' ? (data: unknown) => validate(nullsAsAbsent(route.schema, data)) : validate;
};
