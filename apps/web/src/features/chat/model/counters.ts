import type { ChatCounters } from '@divan/core';

/** Unread messages over every conversation of the workspace (the sidebar's badge). */
export function totalUnread(counters: ChatCounters | undefined): number {
  if (!counters) return 0;
  let total = 0;
  for (const { count } of Object.values(counters)) total += count;
  return total;
}

/**
 * The workspace's counters after `chat-notification-counter {patientFileId, count}`. The socket
 * speaks for every workspace of the user and the event does not say which: a file already among
 * these counters is this workspace's and is updated here; a file not among them with unread messages
 * may be a new one of this workspace, so the answer is 'refetch' (the server knows); a file not among
 * them going to zero changes nothing.
 */
export function applyCounter(counters: ChatCounters, patientFileId: string, count: number): ChatCounters | 'refetch' | 'same' {
  const known = counters[patientFileId];
  if (!known) return count > 0 ? 'refetch' : 'same';
  if (known.count === count) return 'same';
  const next = { ...counters };
  if (count > 0) next[patientFileId] = { count };
  else delete next[patientFileId];
  return next;
}

/** A conversation's unread count: the live counters once loaded (a file left out has none), else the list's own. */
export function unreadOf(counters: ChatCounters | undefined, patientFileId: string, fromList: number): number {
  return counters ? (counters[patientFileId]?.count ?? 0) : fromList;
}

/** The badge's text: up to 99, then «99+». */
export const badgeText = (n: number) => (n > 99 ? '99+' : String(n));

/** Unread messages the counters hold beyond those of the listed conversations (the dashboard: paused or discharged patients'). Never below zero. */
export function unreadBeyond(counters: ChatCounters | undefined, listed: readonly number[]): number {
  if (!counters) return 0;
  return Math.max(0, totalUnread(counters) - listed.reduce((sum, n) => sum + n, 0));
}
