import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { GoogleCalendarCallback, GoogleCalendarSettings, GoogleCalendarStatus } from '@divan/core';
import { api } from '@/lib/api-client';
import { googleCalendarKeys } from '@/lib/google-calendar';

export { googleCalendarKeys, useGoogleCalendarStatus } from '@/lib/google-calendar';

const path = (wid: string, rest = '') => `/workspaces/${wid}/google-calendar${rest}`;

/** Google's consent page, to send the browser to. */
export const authorizeGoogleCalendar = (wid: string) => api<{ url: string }>(path(wid, '/authorize'), { method: 'POST' });

/** The end of the round trip: the code and state Google put on the callback page. */
export const connectGoogleCalendar = (wid: string, body: GoogleCalendarCallback) =>
  api<GoogleCalendarStatus>(path(wid, '/callback'), { method: 'POST', body });

export function useGoogleCalendarSettings(wid: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: GoogleCalendarSettings) => api<GoogleCalendarStatus>(path(wid, '/settings'), { method: 'PUT', body }),
    onSuccess: (status, body) => {
      qc.setQueryData(googleCalendarKeys.status(wid), status);
      if (!body.busyCalendarIds) return;
      // Other calendars chosen: other busy times, read from Google by a job a moment later (and its last sync).
      const again = () => void qc.invalidateQueries({ queryKey: googleCalendarKeys.all(wid) });
      void qc.invalidateQueries({ queryKey: [...googleCalendarKeys.all(wid), 'busy'] });
      setTimeout(again, 5000);
    },
  });
}

export function useSyncExistingSessions(wid: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api<{ queued: number }>(path(wid, '/sync-existing'), { method: 'POST' }),
    onSuccess: () => {
      qc.setQueryData<GoogleCalendarStatus>(googleCalendarKeys.status(wid), (s) => (s ? { ...s, existingSynced: true } : s));
    },
  });
}

export function useDisconnectGoogleCalendar(wid: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api<null>(path(wid), { method: 'DELETE' }),
    onSuccess: () => {
      qc.setQueryData<GoogleCalendarStatus>(googleCalendarKeys.status(wid), (s) =>
        s
          ? {
              ...s,
              connected: false,
              googleEmail: null,
              connectedAt: null,
              calendars: [],
              busyCalendarIds: [],
              lastSyncedAt: null,
              existingSynced: false,
            }
          : s,
      );
      void qc.invalidateQueries({ queryKey: googleCalendarKeys.all(wid) });
    },
  });
}
