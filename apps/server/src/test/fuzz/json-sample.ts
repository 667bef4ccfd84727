import { randomUUID } from 'node:crypto';

/** The subset of JSON Schema (2020-12, as the OpenAPI 3.1 document writes it) the fuzz test reads. */
export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  examples?: unknown[];
  example?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  additionalProperties?: boolean | JsonSchema;
};

/** A deterministic generator (mulberry32): the same seed picks the same cases on every run. */
export function seeded(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!,
    shuffle<T>(xs: readonly T[]): T[] {
      const out = [...xs];
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [out[i], out[j]] = [out[j]!, out[i]!];
      }
      return out;
    },
  };
}

/** The one non-null variant of `X | null`, or the schema itself. */
export function nonNull(s: JsonSchema): JsonSchema {
  const variants = s.anyOf ?? s.oneOf;
  if (variants) {
    const real = variants.filter((v) => v.type !== 'null');
    return real.length ? nonNull(real[0]!) : s;
  }
  if (Array.isArray(s.type)) return { ...s, type: s.type.find((t) => t !== 'null') ?? 'null' };
  if (s.allOf?.length === 1) return nonNull({ ...s.allOf[0], ...s, allOf: undefined });
  return s;
}

const DAY_PATTERN = /\\d\{4\}-\\d\{2\}-\\d\{2\}/;
export const isDay = (s: JsonSchema) => s.format === 'date' || (!!s.pattern && DAY_PATTERN.test(s.pattern) && !s.pattern.includes('T'));
export const isInstant = (s: JsonSchema) => s.format === 'date-time';
export const isUuid = (s: JsonSchema) => s.format === 'uuid';
export const typeOf = (s: JsonSchema): string | undefined => {
  const n = nonNull(s);
  if (n.enum) return 'enum';
  return typeof n.type === 'string' ? n.type : n.properties ? 'object' : undefined;
};

/** Strings tried against a pattern, so a valid body passes `^…$` rules (phone, zip code, colour…). */
const PATTERN_CANDIDATES = ['Texto', '612345678', '28001', '#336699', 'abc', 'a', '12:30', '1', 'ES', 'es', '12345678Z', '2024-05-10', ''];
/** Fields whose rule is a refinement (not in the document): a value by their name. */
const BY_NAME: [RegExp, string][] = [
  [/phone/i, '612345678'],
  [/taxId|nif|dni/i, '12345678Z'],
  [/zip/i, '28001'],
  [/password/i, 'Consulta2026'],
];

export type SampleContext = {
  /** A real id for a field or parameter named like this (`roleIds` → a role of the fixture workspace). */
  idFor(name: string): string | undefined;
};

/** A value the schema accepts: examples and defaults first, then enum values, formats, patterns and bounds. */
export function sample(schema: JsonSchema, ctx: SampleContext, name = ''): unknown {
  if (schema.examples?.length) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  const s = nonNull(schema);
  if (s !== schema) return sample(s, ctx, name);
  if (s.enum?.length) return s.enum[0];
  switch (typeOf(s)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, prop] of Object.entries(s.properties ?? {})) out[key] = sample(prop, ctx, key);
      return out;
    }
    case 'array': {
      const item = s.items ?? { type: 'string' };
      const singular = name.endsWith('s') ? name.slice(0, -1) : name;
      return Array.from({ length: Math.max(1, s.minItems ?? 1) }, () => sample(item, ctx, singular));
    }
    case 'integer':
    case 'number': {
      const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 0);
      const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : min + 10);
      return Math.min(Math.max(min, 1), max);
    }
    case 'boolean':
      return true;
    case 'string':
      return sampleString(s, ctx, name);
    default:
      return 'Texto';
  }
}

function sampleString(s: JsonSchema, ctx: SampleContext, name: string): string {
  if (isUuid(s)) return ctx.idFor(name) ?? randomUUID();
  if (isDay(s)) return '2024-05-10';
  if (isInstant(s)) return '2024-05-10T10:00:00.000Z';
  if (s.format === 'email' || /email/i.test(name)) return 'fuzz@example.com';
  if (s.format === 'uri' || s.format === 'url') return 'https://example.com';
  let value = BY_NAME.find(([re]) => re.test(name))?.[1] ?? 'Texto';
  if (s.pattern && !new RegExp(s.pattern, 'u').test(value)) {
    const re = new RegExp(s.pattern, 'u');
    value = PATTERN_CANDIDATES.find((c) => re.test(c) && c.length >= (s.minLength ?? 0)) ?? value;
  }
  if (s.minLength && value.length < s.minLength) value = value.padEnd(s.minLength, 'a');
  if (s.maxLength !== undefined && value.length > s.maxLength) value = value.slice(0, s.maxLength);
  return value;
}
