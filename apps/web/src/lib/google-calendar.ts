import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { GoogleBusyBlock, GoogleCalendarStatus, GoogleSessionLink } from '@divan/core';
import { api } from './api-client';
import { realtimeBus } from './realtime-bus';
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

/**
 * The caller's busy times from Google in [from, to) (instants): refetched at once when the server says a sync
 * changed them (`google-busy-changed` on the socket) and when the socket is back; every few minutes, and on
 * focus, in case a message was missed.
 */
export function useGoogleBusy(wid: string, range: { from: string; to: string } | null) {
  const qc = useQueryClient();
  const on = !!range;
  useEffect(() => {
    if (!on) return;
    const again = () => void qc.invalidateQueries({ queryKey: [...googleCalendarKeys.all(wid), 'busy'] });
    const offFrame = realtimeBus.onFrame((f) => {
      if (f.event === 'google-busy-changed' && (f.data as { workspaceId?: string } | undefined)?.workspaceId === wid) again();
    });
    // Back after a drop: what changed meanwhile was not heard.
    let dropped = false;
    const offStatus = realtimeBus.onStatus((status) => {
      if (status === 'closed') dropped = true;
      else if (status === 'connected' && dropped) {
        dropped = false;
        again();
      }
    });
    return () => {
      offFrame();
      offStatus();
    };
  }, [qc, wid, on]);
  return useQuery({
    queryKey: googleCalendarKeys.busy(wid, range?.from ?? '', range?.to ?? ''),
    queryFn: ({ signal }) =>
      api<{ items: GoogleBusyBlock[] }>(path(wid, '/busy'), { query: { from: range!.from, to: range!.to }, signal }).then((r) => r.items),
    enabled: on,
    staleTime: 30_000,
    refetchInterval: 5 * 60_000,
    refetchOnWindowFocus: true,
    // A refusal (e.g. no access) leaves the calendar as it is: busy times are a help, not the screen.
    retry: false,
  });
}

/**
 * A session's Google event and Meet link. The event is written by a job a moment after the session: while a
 * session that wants Meet has no link yet, asked again every few seconds (`poll`; a list's rows ask once).
 */
export const useGoogleSessionLink = (wid: string, sessionId: string, enabled: boolean, poll = true) =>
  useQuery({
    queryKey: googleCalendarKeys.session(wid, sessionId),
    queryFn: ({ signal }) => api<GoogleSessionLink>(path(wid, `/sessions/${sessionId}`), { signal }),
    enabled,
    retry: false,
    refetchInterval: (q) => (!poll || q.state.data?.meetLink || q.state.dataUpdateCount > 20 || q.state.error ? false : 3000),
  });
