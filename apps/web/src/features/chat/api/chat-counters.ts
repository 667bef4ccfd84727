import { useQuery } from '@tanstack/react-query';
import type { ChatCounters, ChatTab } from '@divan/core';
import { api } from '@/lib/api-client';
import { workspaceKey } from '@/lib/workspace-keys';

/** The shell loads this file (the sidebar's badge): keep it small; the screens' calls are in chat-api.ts. */
export type ChatListParams = { tab: ChatTab; q: string; page: number };

/** Every key under the workspace, so switching workspace never shows another one's conversations. */
export const chatKeys = {
  all: (wid: string) => workspaceKey(wid, 'chats'),
  lists: (wid: string) => [...chatKeys.all(wid), 'list'] as const,
  list: (wid: string, p: ChatListParams) => [...chatKeys.lists(wid), p] as const,
  counters: (wid: string) => [...chatKeys.all(wid), 'counters'] as const,
  officeHours: ['me', 'chat-office-hours'] as const,
};

/** Unread per patient file of this workspace; kept live by the socket's counter events (use-chat-live). */
export const useChatCounters = (wid: string, enabled: boolean) =>
  useQuery({
    queryKey: chatKeys.counters(wid),
    queryFn: ({ signal }) => api<ChatCounters>(`/workspaces/${wid}/chats/counters`, { signal }),
    enabled,
    staleTime: 5 * 60_000,
  });
