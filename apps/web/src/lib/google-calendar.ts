import { useQuery } from '@tanstack/react-query';
import type { GoogleBusyBlock, GoogleCalendarStatus, GoogleSessionLink } from '@divan/core';
import { api } from './api-client';
import { workspaceKey } from './workspace-keys';

/**
 * The reads of the caller's Google Calendar connection that several screens share: Ajustes › Integraciones
 * (features/google-calendar), the calendar's grey busy blocks, the session's Meet link and the form's
 * Google Meet choice (features/calendar).
 */
/** The caller's own Google Calendar connection in a workspace (`/workspaces/:id/google-calendar/…`). */
export const googleCalendarKeys = {
  all: (wid: string) => workspaceKey(wid, 'google-calendar'),
  status: (wid: string) => workspaceKey(wid, 'google-calendar', 'status'),
  busy: (wid: string, from: string, to: string) => workspaceKey(wid, 'google-calendar', 'busy', from, to),
  session: (wid: string, sessionId: string) => workspaceKey(wid, 'google-calendar', 'session', sessionId),
};
const path = (wid: string, rest = '') => `/workspaces/${wid}/google-calendar${rest}`;

/** The status reads the account's calendars from Google each time: kept a few minutes. */
export const useGoogleCalendarStatus = (wid: string, enabled = true) =>
  useQuery({
    queryKey: googleCalendarKeys.status(wid),
    queryFn: ({ signal }) => api<GoogleCalendarStatus>(path(wid), { signal }),
    staleTime: 5 * 60_000,
    enabled,
  });

/** The caller's busy times from Google in [from, to) (instants): refetched every minute and on focus. */
export const useGoogleBusy = (wid: string, range: { from: string; to: string } | null) =>
  useQuery({
    queryKey: googleCalendarKeys.busy(wid, range?.from ?? '', range?.to ?? ''),
    queryFn: ({ signal }) =>
      api<{ items: GoogleBusyBlock[] }>(path(wid, '/busy'), { query: { from: range!.from, to: range!.to }, signal }).then((r) => r.items),
    enabled: !!range,
    staleTime: 30_000,
    refetchInterval: 60_000,
    refetchOnWindowFocus: true,
    // A refusal (e.g. no access) leaves the calendar as it is: busy times are a help, not the screen.
    retry: false,
  });

/**
 * A session's Google event and Meet link. The event is written by a job a moment after the session: while a
 * session that wants Meet has no link yet, asked again every few seconds.
 */
export const useGoogleSessionLink = (wid: string, sessionId: string, enabled: boolean) =>
  useQuery({
    queryKey: googleCalendarKeys.session(wid, sessionId),
    queryFn: ({ signal }) => api<GoogleSessionLink>(path(wid, `/sessions/${sessionId}`), { signal }),
    enabled,
    retry: false,
    refetchInterval: (q) => (q.state.data?.meetLink || q.state.dataUpdateCount > 20 || q.state.error ? false : 3000),
  });
