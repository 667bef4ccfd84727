import type { PatientListQuery } from '@divan/core';
import { workspaceKey } from '../../../lib/workspace-keys';

/** Every key starts with the workspace (`workspaceKey`), so switching workspace never shows another one's data. */
export const patientKeys = {
  all: (wid: string) => workspaceKey(wid, 'patients'),
  lists: (wid: string) => [...patientKeys.all(wid), 'list'] as const,
  list: (wid: string, query: PatientListQuery) => [...patientKeys.lists(wid), query] as const,
  detail: (wid: string, pid: string) => [...patientKeys.all(wid), 'detail', pid] as const,
  history: (wid: string, pid: string) => [...patientKeys.detail(wid, pid), 'history'] as const,
  revisions: (wid: string, pid: string, entryId: string) => [...patientKeys.history(wid, pid), entryId, 'revisions'] as const,
  documents: (wid: string, pid: string) => [...patientKeys.detail(wid, pid), 'documents'] as const,
  /** Shared with the members screens: same key, same answer (Member[]). */
  members: (wid: string) => workspaceKey(wid, 'members'),
  tagsAll: (wid: string) => workspaceKey(wid, 'document-tags'),
  tags: (wid: string, q: string) => workspaceKey(wid, 'document-tags', q),
  import: (wid: string, importId: string) => workspaceKey(wid, 'patient-imports', importId),
};

export const workspacePath = (wid: string) => `/workspaces/${wid}`;
export const patientPath = (wid: string, pid: string) => `/workspaces/${wid}/patients/${pid}`;
