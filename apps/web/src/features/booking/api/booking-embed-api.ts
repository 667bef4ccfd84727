import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BookingEmbed } from '@divan/core';
import { api } from '@/lib/api-client';
import { workspaceKey } from '@/lib/workspace-keys';

const key = (wid: string) => workspaceKey(wid, 'booking-embed');
const path = (wid: string) => `/workspaces/${wid}/booking-embed`;

/** The origins allowed to frame the workspace's booking pages, and whether the plan allows it now. */
export const useBookingEmbed = (wid: string) =>
  useQuery({ queryKey: key(wid), queryFn: ({ signal }) => api<BookingEmbed>(path(wid), { signal }) });

export function useSaveBookingEmbed(wid: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (allowedOrigins: string[]) => api<BookingEmbed>(path(wid), { method: 'PUT', body: { allowedOrigins } }),
    onSuccess: (saved) => qc.setQueryData(key(wid), saved),
  });
}
