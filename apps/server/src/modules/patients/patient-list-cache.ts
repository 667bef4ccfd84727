import type { Scope } from '@divan/core';
import { WorkspaceCache } from '../../platform/cache/workspace-cache';
import { handle, type Handler } from '../../platform/modules/define-module';
import type { ListQuery } from './patients.repository';

/** Serialised list pages per workspace (see WorkspaceCache): up to `entries` pages, 32 MB. */
export type PatientListCache = WorkspaceCache<Buffer>;
export const patientListCache = (entries: number): PatientListCache =>
  new WorkspaceCache<Buffer>({ maxEntries: entries, maxSize: 32 * 1024 * 1024, sizeOf: (b) => b.length });

/**
 * A page's key: the workspace's generation, who may see which patients and which of their fields
 * (`fields`: fieldAccessKey of PATIENT_FIELDS), and the whole query.
 */
export function listKey(workspaceId: string, generation: string, scope: Scope, q: ListQuery, fields: string): string {
  const who = `${scope.kind === 'own' ? `own:${scope.ownerId}` : scope.kind}|${fields}`;
  const query = [q.q ?? '', q.status ?? '', q.therapistId ?? '', q.sessionType ?? '', q.motive ?? '', q.sort, q.dir, q.page, q.pageSize];
  return `${workspaceId}|${generation}|${who}|${JSON.stringify(query)}`;
}

/** Every event of a change to a workspace's patients. */
export const PATIENT_EVENTS = [
  'patient.created',
  'patient.updated',
  'patient.assigned',
  'patient.blocked',
  'patient.erased',
  'patients.imported',
] as const;

/** The pages a change made stale are dropped, here and (through the cache's own note) in every process. */
export function dropStalePages(listCache: PatientListCache): Handler[] {
  return [
    // Registered first, so the pages are gone before any other module's handler runs. 'once': the cache's
    // `changed` tells the other processes itself (WorkspaceCache.shareThrough), the event need not travel.
    ...PATIENT_EVENTS.map((name) => handle(name, 'once', ({ workspaceId }) => listCache.changed(workspaceId))),
    // The list shows each therapist's name: a new name empties every page, in every process.
    handle('user.profile_updated', 'every-process', ({ fields }) => {
      if (fields.includes('firstName') || fields.includes('lastName')) listCache.clear();
    }),
  ];
}
