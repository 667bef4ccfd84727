import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ChatCounterEvent, ChatCounters } from '@divan/core';
import { useCan } from '@/lib/permits';
import { realtimeBus } from '@/lib/realtime-bus';
import { isRealWorkspace, useCurrentWorkspace } from '@/stores/workspaces-store';
import { applyCounter, totalUnread } from '../model/counters';
import { chatKeys, useChatCounters } from './chat-counters';

/** Whether the member reads chats here: they follow the clinical history (Recepción does not). */
export const useReadsChats = () => useCan('read', 'patient_histories');

/**
 * Mounted once by the shell: the socket's chat events keep this workspace's counters and lists
 * current wherever the member is (the sidebar's badge, the list's rows). The open conversation
 * listens to its own messages (use-conversation).
 */
export function useChatLive(): void {
  const qc = useQueryClient();
  const workspace = useCurrentWorkspace();
  const reads = useReadsChats();
  const wid = workspace.id;

  useEffect(() => {
    if (!reads || !isRealWorkspace(wid)) return;
    const refetchCounters = () => void qc.invalidateQueries({ queryKey: chatKeys.counters(wid) });
    const refetchLists = () => void qc.invalidateQueries({ queryKey: chatKeys.lists(wid) });
    return realtimeBus.onFrame((frame) => {
      if (frame.event === 'chat-notification-counters') {
        // At every (re)connection: whatever changed while offline.
        refetchCounters();
        refetchLists();
      } else if (frame.event === 'chat-notification-counter') {
        const { patientFileId, count } = frame.data as ChatCounterEvent;
        const current = qc.getQueryData<ChatCounters>(chatKeys.counters(wid));
        if (!current) return refetchCounters();
        const next = applyCounter(current, patientFileId, count);
        if (next === 'refetch') refetchCounters();
        else if (next !== 'same') qc.setQueryData(chatKeys.counters(wid), next);
        refetchLists();
      } else if (frame.event === 'chat-message') {
        refetchLists();
      }
    });
  }, [qc, wid, reads]);
}

/** The sidebar's number: unread messages over this workspace's conversations. */
export function useChatUnreadTotal(): number {
  const workspace = useCurrentWorkspace();
  const reads = useReadsChats();
  const counters = useChatCounters(workspace.id, reads && isRealWorkspace(workspace.id));
  return reads ? totalUnread(counters.data) : 0;
}
