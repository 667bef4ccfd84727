import { useCallback, useEffect, useRef, useState } from 'react';
import type { ChatMessage } from '@divan/core';
import { chatApi } from './api';
import { asFailure, isAbort, type Failure } from './errors';
import { onChatFrame, setCounter, useConnections } from './live';
import { lastFromPeer, mergeMessages } from './messages';

/**
 * One conversation: the latest page, older pages on demand, messages live from the socket, catch-up
 * with `after` on every reconnection, and read marks up to the newest message of the therapist's side
 * while the page is visible.
 */
export function useChat(fileId: string) {
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [older, setOlder] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [typing, setTyping] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const latest = useRef<ChatMessage[]>([]);
  latest.current = messages;
  const marked = useRef<string | null>(null);
  const connections = useConnections();
  const add = useCallback((incoming: ChatMessage[]) => setMessages((m) => mergeMessages(m, incoming)), []);

  useEffect(() => {
    const ctrl = new AbortController();
    setFailure(null);
    chatApi.messages(fileId, {}, ctrl.signal).then(
      (page) => {
        add(page.items);
        setOlder(page.next);
        setLoaded(true);
      },
      (e) => !isAbort(e) && setFailure(asFailure(e)),
    );
    return () => ctrl.abort();
  }, [fileId, add, attempt]);

  useEffect(() => {
    let typingTimer: ReturnType<typeof setTimeout> | undefined;
    const off = onChatFrame(fileId, {
      message: ({ message }) => {
        add([message]);
        if (message.sender.kind === 'member') setTyping(false);
      },
      typing: ({ senderKind }) => {
        if (senderKind !== 'member') return;
        setTyping(true);
        clearTimeout(typingTimer);
        typingTimer = setTimeout(() => setTyping(false), 4000);
      },
    });
    return () => (off(), clearTimeout(typingTimer));
  }, [fileId, add]);

  // A reconnection: what came meanwhile, oldest first, page by page.
  const first = useRef(connections);
  useEffect(() => {
    if (connections === first.current || !loaded) return;
    let cancelled = false;
    void (async () => {
      let after = latest.current.at(-1)?.cursor;
      while (after && !cancelled) {
        const page = await chatApi.messages(fileId, { after }).catch(() => null);
        if (!page) return;
        add(page.items);
        after = page.next ?? undefined;
      }
    })();
    return () => void (cancelled = true);
  }, [connections, loaded, fileId, add]);

  // Read marks: what is on screen, when the page is in front.
  useEffect(() => {
    const mark = () => {
      const peer = lastFromPeer(latest.current);
      if (!peer || peer.id === marked.current || document.visibilityState !== 'visible') return;
      marked.current = peer.id;
      chatApi.read(fileId, peer.id).then(
        (res) => setCounter(fileId, typeof res?.count === 'number' ? res.count : 0),
        () => (marked.current = null),
      );
    };
    mark();
    document.addEventListener('visibilitychange', mark);
    return () => document.removeEventListener('visibilitychange', mark);
  }, [messages, fileId]);

  const loadOlder = async () => {
    if (!older) return;
    setLoadingOlder(true);
    try {
      const page = await chatApi.messages(fileId, { before: older });
      add(page.items);
      setOlder(page.next);
    } catch (e) {
      setFailure(asFailure(e));
    } finally {
      setLoadingOlder(false);
    }
  };
  const send = async (body: string, attachmentDocumentId?: string) => add([await chatApi.send(fileId, body, attachmentDocumentId)]);

  return { messages, loaded, failure, typing, hasOlder: !!older, loadingOlder, loadOlder, send, retry: () => setAttempt((a) => a + 1) };
}
