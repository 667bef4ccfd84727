import { CHAT_TABS, type ChatTab } from '@divan/core';

export type ChatListState = { tab: ChatTab; q: string; page: number };

export const TAB_LABELS: Record<ChatTab, string> = { unread: 'Sin leer', read: 'Leídos', inactive: 'Pacientes inactivos' };

/** The list's tab, search and page from the address (`?tab=read&q=ana&page=2`); anything odd falls back to the defaults. */
export function readChatListState(params: URLSearchParams): ChatListState {
  const tab = params.get('tab');
  const page = Number(params.get('page'));
  return {
    tab: (CHAT_TABS as readonly string[]).includes(tab ?? '') ? (tab as ChatTab) : 'unread',
    q: (params.get('q') ?? '').slice(0, 100),
    page: Number.isInteger(page) && page > 1 && page <= 10_000 ? page : 1,
  };
}

/** Only what differs from the defaults goes in the address. */
export function writeChatListState(s: ChatListState): URLSearchParams {
  const out = new URLSearchParams();
  if (s.tab !== 'unread') out.set('tab', s.tab);
  if (s.q.trim()) out.set('q', s.q);
  if (s.page > 1) out.set('page', String(s.page));
  return out;
}
