import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  decodeSessionGrid,
  type CancellationReason,
  type CreateSessionBody,
  type Member,
  type PaymentType,
  type SessionGrid,
  type UpdateSessionBody,
  type WorkspaceLocation,
} from '@divan/core';
import { api } from '@/lib/api-client';
import { refreshWorkspaceArea, workspaceKey } from '@/lib/workspace-keys';
import type { CalendarSession, CancelResult, GridSession, Scope, SessionUpdate, SessionWrite } from './types';

/** Every key starts with the workspace; the realtime hook invalidates `workspaceKey(wid, 'sessions')` on `session.*`. */
export const sessionKeys = {
  all: (wid: string) => workspaceKey(wid, 'sessions'),
  range: (wid: string, from: string, to: string, therapistId?: string) =>
    [...sessionKeys.all(wid), 'range', from, to, therapistId ?? 'all'] as const,
  detail: (wid: string, id: string) => [...sessionKeys.all(wid), 'detail', id] as const,
};

const base = (wid: string) => `/workspaces/${wid}/sessions`;

/**
 * Sessions starting in [from, to) (instants; at most 42 days), of one therapist or everyone the member may
 * see, as the grid draws them: the compact columns of GET …/sessions/grid (a clinic's team week is a few
 * hundred KB instead of 2.4 MB), each a GridSession.
 */
export const useSessionRange = (wid: string, range: { from: string; to: string } | null, therapistId?: string) =>
  useQuery<GridSession[]>({
    queryKey: sessionKeys.range(wid, range?.from ?? '', range?.to ?? '', therapistId),
    queryFn: ({ signal }) =>
      api<SessionGrid>(`${base(wid)}/grid`, { query: { from: range!.from, to: range!.to, therapistId }, signal }).then(decodeSessionGrid),
    enabled: !!range,
    // Moving to the next week keeps this one on screen until the next arrives: no flash of an empty grid.
    placeholderData: keepPreviousData,
  });

export const sessionOptions = (wid: string, id: string) =>
  queryOptions({ queryKey: sessionKeys.detail(wid, id), queryFn: ({ signal }) => api<CalendarSession>(`${base(wid)}/${id}`, { signal }) });

export const useSession = (wid: string, id: string | null) => useQuery({ ...sessionOptions(wid, id ?? ''), enabled: !!id });

/** Accepted members (not pending invitations): the therapists one can book with, and the resource columns. */
export function useTherapists(wid: string, enabled: boolean) {
  return useQuery({
    queryKey: workspaceKey(wid, 'members'),
    queryFn: ({ signal }) => api<Member[]>(`/workspaces/${wid}/members`, { signal }),
    enabled,
    staleTime: 5 * 60_000,
    select: (members) =>
      members
        .filter((m): m is Member & { userId: string } => m.kind === 'member' && m.status === 'active' && !!m.userId)
        .map((m) => ({ id: m.userId, name: [m.firstName, m.lastName].filter(Boolean).join(' ') || m.email }))
        .sort((a, b) => a.name.localeCompare(b.name, 'es')),
  });
}

export const useLocations = (wid: string) =>
  useQuery({
    queryKey: workspaceKey(wid, 'locations'),
    queryFn: ({ signal }) => api<WorkspaceLocation[]>(`/workspaces/${wid}/locations`, { signal }),
    staleTime: 5 * 60_000,
  });

type PatientHit = { id: string; firstName: string; lastName: string | null; email: string | null; phone: string | null; status?: string };

/** One patient's name and standard price, for a form opened with `?patientId=`. */
export const usePatientBrief = (wid: string, id: string | null) =>
  useQuery({
    queryKey: workspaceKey(wid, 'patients', 'calendar-brief', id),
    queryFn: ({ signal }) =>
      api<PatientHit & { treatment?: { sessionPrice: number | null; sessionModality: string | null } | null }>(
        `/workspaces/${wid}/patients/${id}`,
        { signal },
      ),
    enabled: !!id,
    staleTime: 60_000,
  });

/** A write refreshes every session read of the workspace (ranges; details forgotten unless on screen). */
function useSessionWrite<V, R>(wid: string, fn: (vars: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => refreshWorkspaceArea(qc, wid, 'sessions') });
}

export type CreateBody = CreateSessionBody;
export type UpdateBody = UpdateSessionBody;

export const useCreateSession = (wid: string) =>
  useSessionWrite(wid, (body: CreateBody) => api<SessionWrite>(base(wid), { method: 'POST', body }));

export const useUpdateSession = (wid: string) =>
  useSessionWrite(wid, ({ id, body }: { id: string; body: UpdateBody }) =>
    api<SessionUpdate>(`${base(wid)}/${id}`, { method: 'PATCH', body }),
  );

/** For an occurrence of a series, `scope` says which ones; the answer counts the canceled sessions. */
export const useCancelSession = (wid: string) =>
  useSessionWrite(wid, ({ id, reason, scope }: { id: string; reason: CancellationReason; scope?: Scope }) =>
    api<CancelResult>(`${base(wid)}/${id}/cancel`, { method: 'POST', body: scope ? { reason, scope } : { reason } }),
  );

export const useCompleteSession = (wid: string) =>
  useSessionWrite(wid, (id: string) => api<CalendarSession>(`${base(wid)}/${id}/complete`, { method: 'POST' }));

export const usePaySession = (wid: string) =>
  useSessionWrite(wid, ({ id, paymentType }: { id: string; paymentType: PaymentType }) =>
    api<CalendarSession>(`${base(wid)}/${id}/payment`, { method: 'POST', body: { paymentType } }),
  );
