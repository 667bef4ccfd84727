import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AnalyticsResponse, AnalyticsRowsResponse, AnalyticsTab, DashboardStats, Period } from '@divan/core';
import { api } from '@/lib/api-client';
import { workspaceKey } from '@/lib/workspace-keys';
import { isRealWorkspace } from '@/stores/workspaces-store';

/** What a tab is asked for: a period and, optionally, one therapist (absent: all the member reads). */
export type AnalyticsFilter = Period & { therapistId?: string };

export const analyticsKeys = {
  all: (wid: string) => workspaceKey(wid, 'analytics'),
  dashboard: (wid: string) => [...analyticsKeys.all(wid), 'dashboard'] as const,
  tab: (wid: string, tab: AnalyticsTab, f: AnalyticsFilter) => [...analyticsKeys.all(wid), tab, f] as const,
  rows: (wid: string, tab: AnalyticsTab, card: string, f: AnalyticsFilter) => [...analyticsKeys.all(wid), tab, 'rows', card, f] as const,
};

export const analyticsPath = (wid: string) => `/workspaces/${wid}/analytics`;
export const analyticsQuery = (f: AnalyticsFilter, more: Record<string, string> = {}) =>
  new URLSearchParams({ from: f.from, to: f.to, ...(f.therapistId ? { therapistId: f.therapistId } : {}), ...more }).toString();

/** Figures move with every session and invoice: kept a short while, asked again when the screen comes back. */
const FRESH_MS = 30_000;

export const useDashboardStats = (wid: string, enabled = true) =>
  useQuery({
    queryKey: analyticsKeys.dashboard(wid),
    queryFn: ({ signal }) => api<DashboardStats>(`${analyticsPath(wid)}/dashboard`, { signal }),
    staleTime: FRESH_MS,
    // Before the workspaces arrive the id is a placeholder: nothing to ask the server for yet.
    enabled: enabled && isRealWorkspace(wid),
  });

/** One tab; the previous period's figures stay on screen while the next ones load (no flash of empty cards). */
export const useAnalyticsTab = <T extends AnalyticsTab>(wid: string, tab: T, f: AnalyticsFilter, enabled = true) =>
  useQuery({
    queryKey: analyticsKeys.tab(wid, tab, f),
    queryFn: ({ signal }) => api<AnalyticsResponse>(`${analyticsPath(wid)}/${tab}?${analyticsQuery(f)}`, { signal }),
    select: (r) => r.stats as Extract<AnalyticsResponse, { tab: T }>['stats'],
    placeholderData: keepPreviousData,
    staleTime: FRESH_MS,
    enabled: enabled && isRealWorkspace(wid),
  });

export const useCardRows = (wid: string, tab: AnalyticsTab, card: string | null, f: AnalyticsFilter) =>
  useQuery({
    queryKey: analyticsKeys.rows(wid, tab, card ?? '', f),
    queryFn: ({ signal }) =>
      api<AnalyticsRowsResponse>(`${analyticsPath(wid)}/${tab}/rows?${analyticsQuery(f, { card: card! })}`, { signal }),
    enabled: card !== null && isRealWorkspace(wid),
    staleTime: FRESH_MS,
  });
