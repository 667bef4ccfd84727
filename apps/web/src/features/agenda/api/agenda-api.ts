import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { PatientSessions, Session } from '@divan/core';
import { api } from '@/lib/api-client';
import { workspaceKey } from '@/lib/workspace-keys';

/**
 * Under the calendar's prefix (`workspaceKey(wid, 'sessions')`): a session changed anywhere (the
 * calendar, a note, another member's screen through the socket) refreshes these lists too.
 */
const keys = {
  day: (wid: string, from: string) => [...workspaceKey(wid, 'sessions'), 'agenda-day', from] as const,
  patient: (wid: string, pid: string, page: number) => [...workspaceKey(wid, 'sessions'), 'patient', pid, page] as const,
};

/** The sessions starting in [from, to) that the member may read (a restricted therapist: their own). */
export const useDaySessions = (wid: string, range: { from: string; to: string }) =>
  useQuery({
    queryKey: keys.day(wid, range.from),
    queryFn: ({ signal }) => api<{ items: Session[] }>(`/workspaces/${wid}/sessions?from=${encodeURIComponent(range.from)}&to=${encodeURIComponent(range.to)}`, { signal }),
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
