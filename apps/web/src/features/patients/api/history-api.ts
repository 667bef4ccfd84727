import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { HistoryDraft, HistoryDraftBody, historyEntryBody, HistoryEntry, historyRevisionResponse } from '@divan/core';
import { api } from '@/lib/api-client';
import { workspaceKey } from '@/lib/workspace-keys';
import { patientKeys, patientPath } from './keys';
import { uploadWithProgress } from '@/lib/file-transfer';

export type HistoryRevision = z.infer<typeof historyRevisionResponse>;
export type HistoryEntryInput = z.output<typeof historyEntryBody>;

const base = (wid: string, pid: string) => `${patientPath(wid, pid)}/history`;

/** Newest first: by the entry's date, then by when it was written. */
export const sortEntries = (entries: HistoryEntry[]) =>
  [...entries].sort((a, b) => b.date.localeCompare(a.date) || b.createdAt.localeCompare(a.createdAt));

export const useHistory = (wid: string, pid: string) =>
  useQuery({
    queryKey: patientKeys.history(wid, pid),
    queryFn: ({ signal }) => api<HistoryEntry[]>(base(wid, pid), { signal }),
    select: sortEntries,
  });

export const useRevisions = (wid: string, pid: string, entryId: string | null) =>
  useQuery({
    queryKey: patientKeys.revisions(wid, pid, entryId ?? ''),
    queryFn: ({ signal }) => api<HistoryRevision[]>(`${base(wid, pid)}/${entryId}/revisions`, { signal }),
    enabled: !!entryId,
  });

/** The list and the patient's counters (overview) change together. */
function useHistoryWrite<V, T>(wid: string, pid: string, fn: (vars: V) => Promise<T>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: patientKeys.history(wid, pid) });
      // A session's note changes what the calendar shows of it ("falta la nota").
      void qc.invalidateQueries({ queryKey: workspaceKey(wid, 'sessions') });
      void qc.invalidateQueries({ queryKey: patientKeys.detail(wid, pid), exact: true });
    },
  });
}

/** A new entry written from a session ("Escribir nota") goes through the session, which links the two. */
export const useSaveEntry = (wid: string, pid: string) =>
  useHistoryWrite(wid, pid, ({ id, body, sessionId }: { id: string | null; body: HistoryEntryInput; sessionId?: string }) =>
    id
      ? api<HistoryEntry>(`${base(wid, pid)}/${id}`, { method: 'PUT', body })
      : sessionId
        ? api<HistoryEntry>(`/workspaces/${wid}/sessions/${sessionId}/note`, { method: 'POST', body })
        : api<HistoryEntry>(base(wid, pid), { method: 'POST', body }),
  );

/** The session a note is written from: its day and time, for the entry's date and title. */
export type NoteSession = { id: string; day: string; from: string; patient: { id: string } };
export const useNoteSession = (wid: string, sessionId: string | null) =>
  useQuery({
    queryKey: [...workspaceKey(wid, 'sessions'), 'one', sessionId],
    queryFn: ({ signal }) => api<NoteSession>(`/workspaces/${wid}/sessions/${sessionId}`, { signal }),
    enabled: !!sessionId,
    retry: false,
  });

export const useDeleteEntry = (wid: string, pid: string) =>
  useHistoryWrite(wid, pid, (id: string) => api<null>(`${base(wid, pid)}/${id}`, { method: 'DELETE' }));

export const useImportDocx = (wid: string, pid: string) =>
  useHistoryWrite(wid, pid, ({ file, onProgress }: { file: File; onProgress?: (f: number) => void }) => {
    const body = new FormData();
    body.append('file', file);
    return uploadWithProgress<HistoryEntry>(`${base(wid, pid)}/import-docx`, body, { onProgress });
  });

/** The caller's unsaved entries for the patient (kept on the server while typing, private to them). */
export const draftsKey = (wid: string, pid: string) => [...patientKeys.history(wid, pid), 'drafts'] as const;

export const useDrafts = (wid: string, pid: string, enabled = true) =>
  useQuery({
    queryKey: draftsKey(wid, pid),
    queryFn: ({ signal }) => api<HistoryDraft[]>(`${base(wid, pid)}/drafts`, { signal }),
    enabled,
  });

const draftPath = (wid: string, pid: string, entryId: string | null) =>
  entryId ? `${base(wid, pid)}/${entryId}/draft` : `${base(wid, pid)}/draft`;

export const putDraft = (wid: string, pid: string, entryId: string | null, body: HistoryDraftBody) =>
  api<HistoryDraft>(draftPath(wid, pid, entryId), { method: 'PUT', body });

export const deleteDraft = (wid: string, pid: string, entryId: string | null) =>
  api<null>(draftPath(wid, pid, entryId), { method: 'DELETE' });
