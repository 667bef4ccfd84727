import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AvailabilityOverrideRecord,
  BookingService,
  CreateAvailabilityOverridesBody,
  CreateBookingServiceBody,
  UpdateBookingServiceBody,
} from '@divan/core';
import { api } from '@/lib/api-client';
import { workspaceKey } from '@/lib/workspace-keys';

/** Every key starts with the workspace: switching workspace never shows another one's services. */
export const bookingKeys = {
  services: (wid: string) => workspaceKey(wid, 'booking-services'),
  overrides: (wid: string, therapistId: string | null) => [...workspaceKey(wid, 'availability-overrides'), therapistId ?? 'all'] as const,
};

const servicesPath = (wid: string) => `/workspaces/${wid}/booking-services`;
const overridesPath = (wid: string) => `/workspaces/${wid}/availability-overrides`;

/** The services the member may read (their own, or every therapist's), by title. */
export const useBookingServices = (wid: string) =>
  useQuery({
    queryKey: bookingKeys.services(wid),
    queryFn: ({ signal }) => api<{ items: BookingService[] }>(servicesPath(wid), { signal }).then((r) => r.items),
  });

export function useSaveBookingService(wid: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: string | null; body: CreateBookingServiceBody | UpdateBookingServiceBody }) =>
      v.id
        ? api<BookingService>(`${servicesPath(wid)}/${v.id}`, { method: 'PATCH', body: v.body })
        : api<BookingService>(servicesPath(wid), { method: 'POST', body: v.body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: bookingKeys.services(wid) }),
  });
}

export function useDeleteBookingService(wid: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<unknown>(`${servicesPath(wid)}/${id}`, { method: 'DELETE' }),
    onSuccess: () => qc.invalidateQueries({ queryKey: bookingKeys.services(wid) }),
  });
}

/** A therapist's blocked days from today on (the server reads them in the therapist's zone). */
export const useAvailabilityOverrides = (wid: string, therapistId: string | null) =>
  useQuery({
    queryKey: bookingKeys.overrides(wid, therapistId),
    queryFn: ({ signal }) =>
      api<{ items: AvailabilityOverrideRecord[] }>(overridesPath(wid), { signal, query: therapistId ? { therapistId } : undefined }).then(
        (r) => r.items,
      ),
  });

export function useCreateOverrides(wid: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateAvailabilityOverridesBody) => api<unknown>(overridesPath(wid), { method: 'POST', body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: workspaceKey(wid, 'availability-overrides') }),
  });
}

export function useDeleteOverride(wid: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<unknown>(`${overridesPath(wid)}/${id}`, { method: 'DELETE' }),
    onSuccess: () => qc.invalidateQueries({ queryKey: workspaceKey(wid, 'availability-overrides') }),
  });
}

type MemberRow = { kind: string; status: string; userId: string | null; firstName: string | null; lastName: string | null; email: string };

/** The workspace's active members, as people whose days may be blocked (read only when the member sees every therapist's). */
export const useTeam = (wid: string, enabled: boolean) =>
  useQuery({
    queryKey: workspaceKey(wid, 'members'),
    queryFn: ({ signal }) => api<MemberRow[]>(`/workspaces/${wid}/members`, { signal }),
    enabled,
    staleTime: 5 * 60_000,
    select: (members) =>
      members
        .filter((m): m is MemberRow & { userId: string } => m.kind === 'member' && m.status === 'active' && !!m.userId)
        .map((m) => ({ id: m.userId, name: [m.firstName, m.lastName].filter(Boolean).join(' ') || m.email }))
        .sort((a, b) => a.name.localeCompare(b.name, 'es')),
  });
