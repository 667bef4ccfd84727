import { randomUUID } from 'node:crypto';
import { png } from '../images';
import { isDay, isInstant, isUuid, nonNull, sample, seeded, typeOf, type JsonSchema, type SampleContext } from './json-sample';

export type Parameter = { name: string; in: 'path' | 'query' | 'header' | 'cookie'; required?: boolean; schema: JsonSchema };
export type Operation = {
  method: string;
  path: string;
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  security?: Record<string, string[]>[];
};
export type OpenApiDoc = { paths: Record<string, Record<string, Omit<Operation, 'method' | 'path'>>> };

/** One request of the fuzz run, and what was broken in it (for the failure message). */
export type FuzzCase = { what: string; method: string; url: string; headers: Record<string, string>; payload?: string | Buffer };

export function operationsOf(doc: OpenApiDoc): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ ...op, method: method.toUpperCase(), path })),
  );
}

const NUL = '\u0000';
const HUGE = 'x'.repeat(100_000);
const IMPOSSIBLE_DAYS = ['2024-02-30', '2023-02-29', '2024-13-01', '0000-01-01', '2024-00-10'];
const IMPOSSIBLE_INSTANTS = ['2024-02-30T10:00:00Z', '0000-01-01T00:00:00Z', '2024-01-01T25:00:00Z'];
const BAD_UUIDS = ['no-es-un-uuid', '1234', `${'f'.repeat(300)}`, '%00', '00000000-0000-0000-0000-00000000000g'];
const OUT_OF_RANGE = [2_147_483_648, -2_147_483_649, 1e308, -1, 1.5, 2 ** 53 + 2];

type Leaf = { path: (string | number)[]; schema: JsonSchema };

/** Every field of a body schema, nested objects and the first item of arrays included (depth-bounded). */
function leaves(schema: JsonSchema, value: unknown, path: (string | number)[] = [], depth = 0): Leaf[] {
  const s = nonNull(schema);
  const here: Leaf[] = path.length ? [{ path, schema: s }] : [];
  if (depth > 3) return here;
  if (typeOf(s) === 'object' && value && typeof value === 'object')
    return [
      ...here,
      ...Object.entries(s.properties ?? {}).flatMap(([k, p]) => leaves(p, (value as Record<string, unknown>)[k], [...path, k], depth + 1)),
    ];
  if (typeOf(s) === 'array' && Array.isArray(value) && value.length && s.items)
    return [...here, ...leaves(s.items, value[0], [...path, 0], depth + 1)];
  return here;
}

/** Wrong values for one field: a wrong type, and what its kind invites (huge, NUL, impossible dates, out of range…). */
function badValues(s: JsonSchema): [string, unknown][] {
  const type = typeOf(s);
  const out: [string, unknown][] = [];
  if (type === 'string' || type === 'enum') {
    out.push(['wrong type', 12345], ['huge string', HUGE], ['NUL', `Ana${NUL}Ruiz`], ['null', null]);
    if (type === 'enum' || s.enum) out.push(['unknown enum value', 'valor_desconocido']);
    if (isUuid(s)) out.push(['bad UUID', 'no-es-un-uuid']);
    if (isDay(s)) for (const d of IMPOSSIBLE_DAYS) out.push([`impossible day ${d}`, d]);
    if (isInstant(s)) for (const d of IMPOSSIBLE_INSTANTS) out.push([`impossible instant ${d}`, d]);
  } else if (type === 'integer' || type === 'number') {
    out.push(['wrong type', 'abc'], ['numeric string', '12']);
    for (const n of OUT_OF_RANGE) out.push([`out of range ${n}`, n]);
  } else if (type === 'boolean') out.push(['wrong type', 'sí']);
  else if (type === 'array')
    out.push(['wrong type', 'x'], ['huge array', Array.from({ length: 5000 }, () => 'x')], ['array of objects', [{}]]);
  else if (type === 'object') out.push(['wrong type', 7], ['array for object', []]);
  else out.push(['NUL', NUL], ['huge string', HUGE]);
  return out;
}

function setAt(root: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path.at(-1)!] = value;
  return copy;
}

/** A multipart body with the given parts (files have a filename), as a browser sends it. */
function form(parts: { name: string; filename?: string; type?: string; data: Buffer | string }[], boundary = 'fuzzBoundary42') {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}`;
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`),
      Buffer.from(p.data),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

function multipartCases(): Omit<FuzzCase, 'method' | 'url'>[] {
  const image = png(4, 4);
  const two = form([
    { name: 'file', filename: 'a.png', type: 'image/png', data: image },
    { name: 'file', filename: 'b.png', type: 'image/png', data: image },
  ]);
  const wrongField = form([{ name: 'otro', filename: 'a.png', type: 'image/png', data: image }]);
  const cutPicture = form([{ name: 'file', filename: 'a.png', type: 'image/png', data: image.subarray(0, 30) }]);
  const empty = form([]);
  const onlyField = form([{ name: 'date', data: '2024-02-30' }]);
  const cut = form([{ name: 'file', filename: 'a.png', type: 'image/png', data: image }]);
  return [
    { what: 'multipart without boundary', headers: { 'content-type': 'multipart/form-data' }, payload: 'abc' },
    {
      what: 'multipart cut before its closing boundary',
      headers: { 'content-type': cut.contentType },
      payload: cut.payload.subarray(0, cut.payload.length - 30),
    },
    { what: 'two files', headers: { 'content-type': two.contentType }, payload: two.payload },
    { what: 'file in an unexpected field', headers: { 'content-type': wrongField.contentType }, payload: wrongField.payload },
    { what: 'picture cut after 30 bytes', headers: { 'content-type': cutPicture.contentType }, payload: cutPicture.payload },
    { what: 'empty form', headers: { 'content-type': empty.contentType }, payload: empty.payload },
    { what: 'a field and no file', headers: { 'content-type': onlyField.contentType }, payload: onlyField.payload },
    { what: 'JSON instead of multipart', headers: { 'content-type': 'application/json' }, payload: '{"file":"x"}' },
    {
      what: 'malformed part header',
      headers: { 'content-type': 'multipart/form-data; boundary=B' },
      payload: '--B\r\nContent-Disposition\r\n\r\nx\r\n--B--\r\n',
    },
  ];
}

/**
 * The bad requests for one operation: each breaks one thing and keeps the rest valid (path ids real,
 * body built from the schema). At most `max` per operation, picked by the seed; the ones that break
 * the request as a whole (malformed JSON, bad UUIDs in the path, broken multipart) are always kept.
 */
export function casesFor(
  op: Operation,
  ctx: SampleContext & { headers: Record<string, string> },
  opts: { seed: number; max: number },
): FuzzCase[] {
  const rng = seeded(opts.seed ^ hash(`${op.method} ${op.path}`));
  const params = op.parameters ?? [];
  const pathValues = Object.fromEntries(params.filter((p) => p.in === 'path').map((p) => [p.name, String(sample(p.schema, ctx, p.name))]));
  const query = Object.fromEntries(
    params.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, String(sample(p.schema, ctx, p.name))]),
  );
  const urlOf = (path: Record<string, string>, q: Record<string, string>) => {
    const u = op.path.replace(/\{(\w+)\}/g, (_, n: string) => encodeURIComponent(path[n] ?? randomUUID()).replaceAll('%2500', '%00'));
    const qs = Object.entries(q)
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
      .join('&');
    return qs ? `${u}?${qs}` : u;
  };
  const jsonSchema = op.requestBody?.content['application/json']?.schema;
  const isMultipart = !!op.requestBody?.content['multipart/form-data'];
  const validBody = jsonSchema ? sample(jsonSchema, ctx) : undefined;
  const jsonHeaders = { ...ctx.headers, 'content-type': 'application/json' };
  const base = (what: string, path = pathValues, q = query) => ({
    what,
    method: op.method,
    url: urlOf(path, q),
    headers: jsonSchema ? jsonHeaders : ctx.headers,
    ...(jsonSchema ? { payload: JSON.stringify(validBody) } : {}),
  });

  if (opts.max < 0) return [base('valid request')];
  const always: FuzzCase[] = [];
  const optional: FuzzCase[] = [];
  for (const p of params.filter((x) => x.in === 'path'))
    for (const bad of BAD_UUIDS)
      (bad === BAD_UUIDS[0] ? always : optional).push(
        base(`bad UUID ${JSON.stringify(bad)} in path ${p.name}`, { ...pathValues, [p.name]: bad }),
      );
  for (const p of params.filter((x) => x.in === 'query')) {
    const s = nonNull(p.schema);
    const values: [string, string][] = [
      ['NUL', `a${NUL}b`],
      ['huge', HUGE.slice(0, 5000)],
      ['wrong type', typeOf(s) === 'string' ? '[]' : 'abc'],
      ['empty', ''],
    ];
    if (s.enum || typeOf(s) === 'enum' || p.schema.anyOf) values.push(['unknown enum value', 'valor_desconocido']);
    if (isUuid(s)) values.push(['bad UUID', 'no-es-un-uuid']);
    if (isDay(s)) values.push(...IMPOSSIBLE_DAYS.map((d): [string, string] => [`impossible day ${d}`, d]));
    if (isInstant(s)) values.push(...IMPOSSIBLE_INSTANTS.map((d): [string, string] => [`impossible instant ${d}`, d]));
    if (typeOf(s) === 'integer' || typeOf(s) === 'number')
      values.push(...OUT_OF_RANGE.map((n): [string, string] => [`out of range ${n}`, String(n)]), ['NaN', 'NaN'], ['Infinity', 'Infinity']);
    for (const [what, v] of values) optional.push(base(`${what} in query ${p.name}`, pathValues, { ...query, [p.name]: v }));
    const dup = base(`query ${p.name} given twice`);
    optional.push({ ...dup, url: `${dup.url}${dup.url.includes('?') ? '&' : '?'}${p.name}=a&${p.name}=b` });
  }
  if (jsonSchema) {
    always.push({ ...base('malformed JSON'), payload: '{"a": ' });
    optional.push(
      { ...base('array for the body'), payload: '[]' },
      { ...base('string for the body'), payload: '"hola"' },
      { ...base('null body'), payload: 'null' },
    );
    optional.push(
      { ...base('empty JSON body'), payload: '' },
      { ...base('deeply nested JSON'), payload: `${'['.repeat(5000)}${']'.repeat(5000)}` },
    );
    optional.push({ ...base('JSON with a NUL key'), payload: JSON.stringify({ ...(validBody as object), [`a${NUL}`]: 1 }) });
    optional.push({ ...base('body as text/plain'), headers: { ...ctx.headers, 'content-type': 'text/plain' } });
    for (const leaf of leaves(jsonSchema, validBody))
      for (const [what, v] of badValues(leaf.schema))
        optional.push({ ...base(`${what} in body ${leaf.path.join('.')}`), payload: JSON.stringify(setAt(validBody, leaf.path, v)) });
  }
  if (isMultipart)
    for (const c of multipartCases())
      always.push({ ...c, method: op.method, url: urlOf(pathValues, query), headers: { ...ctx.headers, ...c.headers } });
  return [...always, ...rng.shuffle(optional)].slice(0, Math.max(opts.max, always.length));
}

/**
 * Where a body may leave a field out, each such field (nested objects and the first item of arrays
 * included) set to null, the rest valid; and all of them null at once. Null where a field is optional
 * is either taken as absent (or "clear it") or refused with a Spanish 400, never a 500.
 */
export function nullCasesFor(op: Operation, ctx: SampleContext & { headers: Record<string, string> }): FuzzCase[] {
  const jsonSchema = op.requestBody?.content['application/json']?.schema;
  if (!jsonSchema) return [];
  const valid = validCase(op, ctx);
  const body = JSON.parse(valid.payload as string) as unknown;
  const paths = optionalPaths(jsonSchema, body);
  const each = paths.map((path) => ({
    ...valid,
    what: `null in optional body ${path.join('.')}`,
    payload: JSON.stringify(setAt(body, path, null)),
  }));
  // Deepest first, so a nested field is nulled before its parent object is.
  const all = [...paths].sort((a, b) => b.length - a.length).reduce((acc, path) => setAt(acc, path, null), body);
  return paths.length > 1 ? [...each, { ...valid, what: 'null in every optional body field', payload: JSON.stringify(all) }] : each;
}

/** The paths of the fields an object schema does not require, in `value` (built by `sample`), depth-bounded. */
function optionalPaths(schema: JsonSchema, value: unknown, path: (string | number)[] = [], depth = 0): (string | number)[][] {
  const s = nonNull(schema);
  if (depth > 3 || !value || typeof value !== 'object') return [];
  if (typeOf(s) === 'array' && Array.isArray(value) && value.length && s.items)
    return optionalPaths(s.items, value[0], [...path, 0], depth + 1);
  if (typeOf(s) !== 'object') return [];
  return Object.entries(s.properties ?? {}).flatMap(([k, p]) => {
    const here = [...path, k];
    const inner = optionalPaths(p, (value as Record<string, unknown>)[k], here, depth + 1);
    return s.required?.includes(k) ? inner : [here, ...inner];
  });
}

/** The request with nothing broken (path ids real, body built from the schema). */
export const validCase = (op: Operation, ctx: SampleContext & { headers: Record<string, string> }) =>
  casesFor(op, ctx, { seed: 0, max: -1 })[0]!;

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}
