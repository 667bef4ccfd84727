import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChatMessage, ChatMessagesPage, ChatOfficeHours, Patient } from '@divan/core';
import { api } from '@/lib/api-client';
import { workspaceKey } from '@/lib/workspace-keys';
import { chatKeys, type ChatListParams } from './chat-counters';

export { chatKeys, useChatCounters, type ChatListParams } from './chat-counters';

export type ChatList = {
  items: {
    patientFileId: string;
    patientName: string;
    treatmentStatus: 'active' | 'paused' | 'inactive';
    unread: number;
    lastMessage: { senderKind: 'member' | 'patient'; body: string; createdAt: string };
  }[];
  total: number;
  page: number;
  pageSize: number;
};
export const CHAT_LIST_PAGE_SIZE = 20;

const base = (wid: string) => `/workspaces/${wid}/chats`;

export const useChatList = (wid: string, p: ChatListParams) =>
  useQuery({
    queryKey: chatKeys.list(wid, p),
    queryFn: ({ signal }) =>
      api<ChatList>(base(wid), { query: { tab: p.tab, q: p.q || undefined, page: p.page, pageSize: CHAT_LIST_PAGE_SIZE }, signal }),
    placeholderData: keepPreviousData,
  });

/** One page of a conversation: `before` pages go back (newest first), `after` catches up (oldest first). */
export const fetchMessages = (wid: string, pid: string, cursor: { before?: string; after?: string }, signal?: AbortSignal) =>
  api<ChatMessagesPage>(`${base(wid)}/${pid}/messages`, { query: { ...cursor, limit: cursor.after ? 100 : 30 }, signal });

export const sendMessage = (wid: string, pid: string, body: string, attachmentDocumentId?: string) =>
  api<ChatMessage>(`${base(wid)}/${pid}/messages`, { method: 'POST', body: { body, attachmentDocumentId } });

export const markRead = (wid: string, pid: string, upTo: string) =>
  api<{ patientFileId: string; count: number }>(`${base(wid)}/${pid}/read`, { method: 'POST', body: { upTo } });

/** The patient's name and therapist for a conversation opened by its address (same key and answer as the patients screens). */
export const useChatPatient = (wid: string, pid: string) =>
  useQuery({
    queryKey: workspaceKey(wid, 'patients', 'detail', pid),
    queryFn: ({ signal }) => api<Patient>(`/workspaces/${wid}/patients/${pid}`, { signal }),
    retry: false,
  });

export const useOfficeHours = () =>
  useQuery({ queryKey: chatKeys.officeHours, queryFn: ({ signal }) => api<ChatOfficeHours>('/me/chat-office-hours', { signal }) });

export function useSaveOfficeHours() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ChatOfficeHours) => api<ChatOfficeHours>('/me/chat-office-hours', { method: 'PUT', body }),
    onSuccess: (saved) => qc.setQueryData(chatKeys.officeHours, saved),
  });
}
