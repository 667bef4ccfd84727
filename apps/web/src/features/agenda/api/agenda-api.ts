import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PatientSessions, Session } from '@divan/core';
import { api } from '@/lib/api-client';
import { workspaceKey } from '@/lib/workspace-keys';
import { pastRange, sessionsToClose, type Outcome } from '../utils/sessions-to-close';

/**
 * Under the calendar's prefix (`workspaceKey(wid, 'sessions')`): a session changed anywhere (the
 * calendar, a note, another member's screen through the socket) refreshes these lists too.
 */
const keys = {
  day: (wid: string, from: string) => [...workspaceKey(wid, 'sessions'), 'agenda-day', from] as const,
  patient: (wid: string, pid: string, page: number) => [...workspaceKey(wid, 'sessions'), 'patient', pid, page] as const,
  past: (wid: string) => [...workspaceKey(wid, 'sessions'), 'agenda-past'] as const,
};

/** The sessions starting in [from, to) that the member may read (a restricted therapist: their own). */
export const useDaySessions = (wid: string, range: { from: string; to: string }) =>
  useQuery({
    queryKey: keys.day(wid, range.from),
    queryFn: ({ signal }) =>
      api<{ items: Session[] }>(`/workspaces/${wid}/sessions?from=${encodeURIComponent(range.from)}&to=${encodeURIComponent(range.to)}`, {
        signal,
      }),
    select: (r) => r.items,
    refetchInterval: 5 * 60_000,
  });

/** A patient's sessions, newest first, a page at a time, with their totals. */
export const usePatientSessions = (wid: string, pid: string, page: number) =>
  useQuery({
    queryKey: keys.patient(wid, pid, page),
    queryFn: ({ signal }) => api<PatientSessions>(`/workspaces/${wid}/patients/${pid}/sessions?page=${page}`, { signal }),
    placeholderData: keepPreviousData,
  });

/** Past sessions still «Pendiente» (the last SESSION_RANGE_MAX_DAYS days), oldest first; the range moves up to now at each read. */
export const useSessionsToClose = (wid: string, enabled: boolean) =>
  useQuery({
    queryKey: keys.past(wid),
    queryFn: ({ signal }) => {
      const range = pastRange();
      return api<{ items: Session[] }>(
        `/workspaces/${wid}/sessions?from=${encodeURIComponent(range.from)}&to=${encodeURIComponent(range.to)}`,
        { signal },
      );
    },
    select: (r) => sessionsToClose(r.items),
    enabled,
    refetchInterval: 5 * 60_000,
  });

/** Closes a past session as it went: completed, or canceled with its reason (a no-show is one). Every session read refreshes. */
export function useCloseSession(wid: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, outcome }: { id: string; outcome: Outcome }) =>
      outcome.kind === 'completed'
        ? api<Session>(`/workspaces/${wid}/sessions/${id}/complete`, { method: 'POST' })
        : api<unknown>(`/workspaces/${wid}/sessions/${id}/cancel`, { method: 'POST', body: { reason: outcome.reason } }),
    onSettled: () => qc.invalidateQueries({ queryKey: workspaceKey(wid, 'sessions') }),
  });
}
