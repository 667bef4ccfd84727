import { SUBJECTS, canOn, scopeFor, type Action, type AppAbility, type OwnedRecord, type Scope, type Subject } from './permissions';

/**
 * Fields, not only records: which permission subject guards each field of a resource, for reading
 * (presenters), filtering and sorting (lists) and writing (inputs). One map per resource, declared
 * with `defineFieldMap` beside the resource's contracts (patients: patients/patient-fields.ts).
 *
 * Paths are dot-separated (`treatment.medication`); a listed path covers everything under it, and a
 * field that is not listed belongs to the map's `base` subject (the record's own subject).
 *
 * Reading: a field the member may not read is absent from the payload (the key is left out, not set
 * to null), so "what does this role read" is the set of keys it gets.
 * Writing: a field the member may not write is refused as a whole request (403 `access_denied`,
 * naming the field group), never silently dropped: a dropped field would look saved to the client.
 */
export type FieldMap<P extends string = string> = { readonly base: Subject; readonly fields: Readonly<Record<P, Subject>> };

export function defineFieldMap<P extends string>(base: Subject, groups: { readonly [S in Subject]?: readonly P[] }): FieldMap<P> {
  const fields = {} as Record<P, Subject>;
  for (const [subject, paths] of Object.entries(groups) as [Subject, readonly P[]][]) for (const p of paths) fields[p] = subject;
  return { base, fields };
}

/** The subject that guards `path`: the longest listed path it starts with, else the base. */
export function subjectOfField(map: FieldMap, path: string): Subject {
  const fields = map.fields as Record<string, Subject>;
  for (let p = path; ;) {
    if (Object.hasOwn(fields, p)) return fields[p]!;
    const dot = p.lastIndexOf('.');
    if (dot < 0) return map.base;
    p = p.slice(0, dot);
  }
}

/** Every subject a map uses, its base first. */
export const subjectsOf = (map: FieldMap): Subject[] => [...new Set([map.base, ...Object.values<Subject>(map.fields)])];

/**
 * The action a write needs on a field's subject: the request's own action where the subject has it,
 * else `update` (the treatment of a new patient is written with "Editar" on Tratamiento, which has
 * no "Crear").
 */
export function writeActionFor(subject: Subject, action: 'create' | 'update'): Exclude<Action, 'manage'> {
  return (SUBJECTS[subject].actions as readonly string[]).includes(action) ? action : 'update';
}

export const canReadField = (ability: AppAbility, map: FieldMap, path: string, record: OwnedRecord) =>
  canOn(ability, 'read', subjectOfField(map, path), record);

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
const hasRulesBelow = (map: FieldMap, path: string) => Object.keys(map.fields).some((k) => k.startsWith(`${path}.`));

/**
 * `value` as the member may read it on `record`: every field it may not read is left out. An object
 * whose own path is guarded goes whole or not at all; one with guarded fields inside is walked.
 * Typed as its input: the contracts declare guarded fields optional.
 */
export function readableView<T extends object>(ability: AppAbility, map: FieldMap, record: OwnedRecord, value: T, prefix = ''): T {
  const out: Record<string, unknown> = {};
  const allowed = new Map<Subject, boolean>();
  const can = (s: Subject) => {
    let ok = allowed.get(s);
    if (ok === undefined) allowed.set(s, (ok = canOn(ability, 'read', s, record)));
    return ok;
  };
  for (const [k, v] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (isPlainObject(v) && hasRulesBelow(map, path)) out[k] = readableView(ability, map, record, v, path);
    else if (can(subjectOfField(map, path))) out[k] = v;
  }
  return out as T;
}

/** The fields a member may read on `record`, as the paths `readableView` keeps (for tests and clients). */
export function readablePaths(ability: AppAbility, map: FieldMap, record: OwnedRecord, paths: readonly string[]): string[] {
  return paths.filter((p) => canReadField(ability, map, p, record));
}

export type FieldDenial = { path: string; subject: Subject };

/**
 * The fields of `input` the member may not write on `record`: every key with a value (`null` too,
 * it clears the field) under a subject whose write action they lack. An empty object writes nothing.
 */
export function forbiddenWrites(
  ability: AppAbility,
  map: FieldMap,
  record: OwnedRecord,
  input: object,
  action: 'create' | 'update',
  prefix = '',
): FieldDenial[] {
  const out: FieldDenial[] = [];
  for (const [k, v] of Object.entries(input)) {
    if (v === undefined) continue;
    const path = prefix ? `${prefix}.${k}` : k;
    if (isPlainObject(v)) {
      out.push(...forbiddenWrites(ability, map, record, v, action, path));
      continue;
    }
    const subject = subjectOfField(map, path);
    if (!canOn(ability, writeActionFor(subject, action), subject, record)) out.push({ path, subject });
  }
  return out;
}

/**
 * Whether the member reads `path` on every record a list read with `listScope` can return: what
 * filtering, sorting or counting by it needs (a filter on a field one may not read tells its value).
 */
export function readableAcross(ability: AppAbility, map: FieldMap, path: string, listScope: Scope, userId: string): boolean {
  if (listScope.kind === 'none') return true;
  const s = scopeFor(ability, 'read', subjectOfField(map, path), userId);
  if (listScope.kind === 'all') return s.kind === 'all';
  return s.kind !== 'none' && (s.kind === 'all' || s.ownerId === listScope.ownerId);
}

/**
 * What a member reads of a resource, as a short stable string: members with the same key get the
 * same fields of every record, so a cache of presented lists may be shared between them.
 */
export function fieldAccessKey(ability: AppAbility, map: FieldMap, userId: string): string {
  return subjectsOf(map)
    .map((s) => {
      const scope = scopeFor(ability, 'read', s, userId);
      return scope.kind === 'own' ? `own:${scope.ownerId}` : scope.kind;
    })
    .join(',');
}

const groupNames = (denials: readonly { subject: Subject }[]) => [...new Set(denials.map((d) => SUBJECTS[d.subject].label))].join(', ');

/** The Spanish message of a refused write, naming the field groups. */
export const writeDeniedMessage = (denials: readonly FieldDenial[]) => `No tienes permiso para editar estos datos: ${groupNames(denials)}.`;
/** The Spanish message of a refused filter or sort, naming the field groups. */
export const filterDeniedMessage = (subjects: readonly Subject[]) =>
  `No tienes permiso para filtrar ni ordenar por estos datos: ${groupNames(subjects.map((subject) => ({ subject })))}.`;
