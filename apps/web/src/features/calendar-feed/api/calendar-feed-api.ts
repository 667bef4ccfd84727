import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CalendarFeed } from '@divan/core';
import { api } from '@/lib/api-client';
import { workspaceKey } from '@/lib/workspace-keys';

const key = (wid: string) => workspaceKey(wid, 'calendar-feed');
const path = (wid: string) => `/workspaces/${wid}/calendar-feed`;

export const useCalendarFeed = (wid: string) =>
  useQuery({ queryKey: key(wid), queryFn: ({ signal }) => api<CalendarFeed>(path(wid), { signal }) });

/** Every write answers the feed's state; only a (re)generation carries its URL, shown once. */
function useFeedWrite<V>(wid: string, fn: (vars: V) => Promise<CalendarFeed | null>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (feed) => {
      if (feed) qc.setQueryData(key(wid), { ...feed, url: undefined });
      else void qc.invalidateQueries({ queryKey: key(wid) });
    },
  });
}

export const useRegenerateFeed = (wid: string) =>
  useFeedWrite(wid, (showFullNames: boolean) => api<CalendarFeed>(path(wid), { method: 'POST', body: { showFullNames } }));
export const useUpdateFeed = (wid: string) =>
  useFeedWrite(wid, (showFullNames: boolean) => api<CalendarFeed>(path(wid), { method: 'PATCH', body: { showFullNames } }));
export const useRevokeFeed = (wid: string) => useFeedWrite(wid, () => api<null>(path(wid), { method: 'DELETE' }));
