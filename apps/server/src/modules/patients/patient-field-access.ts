import {
  PATIENT_FIELDS,
  filterDeniedMessage,
  forbiddenWrites,
  readableAcross,
  scopeFor,
  subjectOfField,
  writeDeniedMessage,
  type OwnedRecord,
  type Subject,
} from '@divan/core';
import { AppError } from '../../platform/errors';
import type { ListQuery } from './patients.repository';
import type { Caller as Who } from '../../platform/auth/caller';

/**
 * A write of a field the member may not write (PATIENT_FIELDS) refuses the whole request: 403
 * `access_denied`, naming the field group, each field in `fields`. Not dropped silently: the client
 * would believe it saved.
 */
export function assertWritable(c: Who, input: object, record: OwnedRecord, action: 'create' | 'update') {
  const denied = forbiddenWrites(c.member.ability, PATIENT_FIELDS, record, input, action);
  if (denied.length)
    throw new AppError(
      'access_denied',
      denied.map((d) => ({ path: d.path, message: 'No tienes permiso para editar este dato' })),
      writeDeniedMessage(denied),
    );
}

/**
 * What a list query may use of the fields: a filter or sort by a field needs it readable on every
 * patient the list can show (or it tells the value), else 403 naming the group. Search looks at the
 * tax id only for those who read billing on all of them; counts per status only for those who read it.
 */
export function listFieldAccess(c: Who, q: ListQuery) {
  const listScope = scopeFor(c.member.ability, 'read', 'patient_files', c.userId);
  const readable = (path: string) => readableAcross(c.member.ability, PATIENT_FIELDS, path, listScope, c.userId);
  const used = [q.status && 'status', q.motive && 'motive', q.sessionType && 'sessionType', q.sort].filter((p): p is string => !!p);
  const denied = [...new Set(used.filter((p) => !readable(p)).map((p): Subject => subjectOfField(PATIENT_FIELDS, p)))];
  if (denied.length) throw new AppError('access_denied', undefined, filterDeniedMessage(denied));
  return { searchTaxId: readable('taxId'), statusCounts: readable('status') };
}
