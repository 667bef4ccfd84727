import { CachedReads } from '../../platform/cache/cached-reads';
import { handle, type Handler } from '../../platform/modules/define-module';
import { PATIENT_EVENTS } from '../patients/patient-list-cache';
import { SERIES_EVENTS } from '../sessions/series/session-series.service';
import { SESSION_EVENTS } from '../sessions/sessions.service';

/**
 * A tab's answer (and the dashboard's figures) per workspace, period and what the caller may read (issue 28): on PGlite one slow
 * aggregate freezes the process, so the same question is answered once until the workspace's data
 * changes. Read through CachedReads: one read per question at a time, a read takes the generation
 * before it queries and a change (any event below, in any process) drops the workspace's answers;
 * `ttlMs` bounds a write no event announces (a booking schedule edited in another process, an invoice
 * voided or its payment taken back), and an answer is read again in the background before it gets there.
 */
export type AnalyticsCache = CachedReads<unknown>;

export const analyticsCache = (entries: number): AnalyticsCache =>
  new CachedReads<unknown>({ maxEntries: entries, ttlMs: 60_000, refreshAfterMs: 45_000 });

/** Every event after which a tab may count something else. */
export const ANALYTICS_EVENTS = [...SESSION_EVENTS, ...SERIES_EVENTS, ...PATIENT_EVENTS, 'invoice.issued', 'invoice.paid'] as const;

export function dropStaleAnswers({ cache }: AnalyticsCache): Handler[] {
  return [
    ...ANALYTICS_EVENTS.map((name) => handle(name, 'once', ({ workspaceId }) => cache.changed(workspaceId))),
    // The dashboard names the members a workspace-wide reader may pick.
    handle('workspace.access_changed', 'once', ({ workspaceId }) => cache.changed(workspaceId)),
    // The tabs name the therapists.
    handle('user.profile_updated', 'every-process', ({ fields }) => {
      if (fields.includes('firstName') || fields.includes('lastName')) cache.clear();
    }),
  ];
}
