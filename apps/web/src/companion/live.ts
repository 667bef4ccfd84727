/**
 * What the socket tells the companion, kept for its screens: unread counters per connected file
 * (greeted with all of them, then each change), new messages and typing notices to whoever listens, and
 * a tick on every (re)connection so an open conversation catches up on what it missed.
 */
import { useEffect, useSyncExternalStore } from 'react';
import type { ChatCounters, ChatMessageEvent, ChatTypingEvent, RealtimeFrame } from '@divan/core';
import { openSocket } from './socket';
import { getSession, useSession } from './session';

type Listener = (frame: RealtimeFrame) => void;

let counters: Record<string, number> = {};
let connections = 0;
const storeListeners = new Set<() => void>();
const frameListeners = new Set<Listener>();
let socket: ReturnType<typeof openSocket> | null = null;

const changed = () => storeListeners.forEach((l) => l());
const subscribeStore = (l: () => void) => {
  storeListeners.add(l);
  return () => storeListeners.delete(l);
};

export function setCounters(next: ChatCounters) {
  counters = Object.fromEntries(Object.entries(next).map(([id, c]) => [id, c.count]));
  changed();
}
export function setCounter(fileId: string, count: number) {
  if ((counters[fileId] ?? 0) === count) return;
  counters = { ...counters, [fileId]: count };
  changed();
}

function onFrame(frame: RealtimeFrame) {
  if (frame.event === 'chat-notification-counters') setCounters((frame.data as { counters: ChatCounters }).counters);
  else if (frame.event === 'chat-notification-counter') {
    const d = frame.data as { patientFileId: string; count: number };
    setCounter(d.patientFileId, d.count);
  }
  frameListeners.forEach((l) => l(frame));
}

/** Keeps the socket open while a patient is signed in (mounted once, at the app's top). */
export function useLiveConnection() {
  const session = useSession();
  const accountId = session?.accountId;
  useEffect(() => {
    if (!accountId) return;
    socket = openSocket({
      onFrame,
      onStatus: (up) => {
        if (up) connections += 1;
        changed();
      },
    });
    return () => {
      socket?.stop();
      socket = null;
      counters = {};
      changed();
    };
  }, [accountId]);
}

export function useCounters(): Record<string, number> {
  return useSyncExternalStore(subscribeStore, () => counters);
}

/** Grows by one on every (re)connection of the socket. */
export function useConnections(): number {
  return useSyncExternalStore(subscribeStore, () => connections);
}

export function onChatFrame(fileId: string, handlers: { message?: (e: ChatMessageEvent) => void; typing?: (e: ChatTypingEvent) => void }) {
  const l: Listener = (frame) => {
    const data = frame.data as { patientFileId?: string } | undefined;
    if (data?.patientFileId !== fileId) return;
    if (frame.event === 'chat-message') handlers.message?.(frame.data as ChatMessageEvent);
    else if (frame.event === 'chat-typing') handlers.typing?.(frame.data as ChatTypingEvent);
  };
  frameListeners.add(l);
  return () => void frameListeners.delete(l);
}

export function sendTyping(patientFileId: string) {
  if (getSession()) socket?.emit('chat-typing', { patientFileId });
}
