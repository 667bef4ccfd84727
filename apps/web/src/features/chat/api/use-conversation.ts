import { useCallback, useEffect, useRef, useState } from 'react';
import { CHAT_TYPING_EVENT, CHAT_TYPING_MIN_INTERVAL_MS, type ChatMessage, type ChatMessageEvent, type ChatTypingEvent } from '@divan/core';
import { realtimeBus } from '@/lib/realtime-bus';
import { catchUp } from '../model/catch-up';
import { mergeMessages, newestCursor } from '../model/messages';
import { fetchMessages, sendMessage } from './chat-api';

/** How long «Escribiendo…» stays after the patient's last typing notice (they come at most every 2 s). */
const TYPING_SHOWN_MS = 5000;
/** A catch-up after a long night offline stops here; the rest loads with the next reconnect or a reload. */
const CATCH_UP_PAGES = 20;

type State = {
  messages: ChatMessage[];
  /** Cursor for «Cargar anteriores» (null: the beginning of the conversation is on screen). */
  older: string | null;
  status: 'loading' | 'ready' | 'error';
  error: unknown;
};

/**
 * One conversation's messages: the latest page, older pages on demand, the socket's live messages and
 * typing notices, and a catch-up with `after` from the newest cursor whenever the socket is back, so
 * nothing sent while offline is missed. Every source goes through mergeMessages: no duplicates.
 */
export function useConversation(wid: string, pid: string) {
  const [state, setState] = useState<State>({ messages: [], older: null, status: 'loading', error: null });
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [olderError, setOlderError] = useState<unknown>(null);
  const [typing, setTyping] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const ref = useRef(state);
  ref.current = state;

  const add = useCallback((incoming: ChatMessage[]) => setState((s) => ({ ...s, messages: mergeMessages(s.messages, incoming) })), []);

  // The latest page (again on «Reintentar»).
  useEffect(() => {
    const controller = new AbortController();
    setState({ messages: [], older: null, status: 'loading', error: null });
    fetchMessages(wid, pid, {}, controller.signal).then(
      (page) => setState((s) => ({ messages: mergeMessages(s.messages, page.items), older: page.next, status: 'ready', error: null })),
      (error: unknown) => {
        if (!controller.signal.aborted) setState((s) => ({ ...s, status: 'error', error }));
      },
    );
    return () => controller.abort();
  }, [wid, pid, attempt]);

  // Live messages and the patient's typing notices for this file.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = realtimeBus.onFrame((frame) => {
      if (frame.event === 'chat-message') {
        const { patientFileId, message } = frame.data as ChatMessageEvent;
        if (patientFileId !== pid) return;
        add([message]);
        if (message.sender.kind === 'patient') setTyping(false);
      } else if (frame.event === CHAT_TYPING_EVENT) {
        const { patientFileId, senderKind } = frame.data as ChatTypingEvent;
        if (patientFileId !== pid || senderKind !== 'patient') return;
        setTyping(true);
        clearTimeout(timer);
        timer = setTimeout(() => setTyping(false), TYPING_SHOWN_MS);
      }
    });
    return () => {
      off();
      clearTimeout(timer);
      setTyping(false);
    };
  }, [pid, add]);

  // Back online: whatever came since the newest message on screen, oldest first, page after page.
  useEffect(() => {
    let running = false;
    return realtimeBus.onStatus((status) => {
      if (status !== 'connected' || running || ref.current.status !== 'ready') return;
      running = true;
      void (async () => {
        try {
          add(await catchUp(newestCursor(ref.current.messages), (after) => fetchMessages(wid, pid, { after }), CATCH_UP_PAGES));
          // An empty conversation has no cursor: its latest page is the catch-up.
          if (!newestCursor(ref.current.messages)) add((await fetchMessages(wid, pid, {})).items);
        } catch {
          // The next reconnect tries again; what is on screen stays.
        } finally {
          running = false;
        }
      })();
    });
  }, [wid, pid, add]);

  const loadOlder = useCallback(async () => {
    const before = ref.current.older;
    if (!before) return;
    setLoadingOlder(true);
    setOlderError(null);
    try {
      const page = await fetchMessages(wid, pid, { before });
      setState((s) => ({ ...s, messages: mergeMessages(s.messages, page.items), older: page.next }));
    } catch (error) {
      setOlderError(error);
    } finally {
      setLoadingOlder(false);
    }
  }, [wid, pid]);

  const send = useCallback(
    async (body: string, attachmentDocumentId?: string) => add([await sendMessage(wid, pid, body, attachmentDocumentId)]),
    [wid, pid, add],
  );

  // «Escribiendo…» on the patient's side: at most one notice per the server's interval.
  const lastTyping = useRef(0);
  const notifyTyping = useCallback(() => {
    const now = Date.now();
    if (now - lastTyping.current < CHAT_TYPING_MIN_INTERVAL_MS) return;
    lastTyping.current = now;
    realtimeBus.send(CHAT_TYPING_EVENT, { patientFileId: pid });
  }, [pid]);

  return { ...state, loadingOlder, olderError, typing, loadOlder, send, notifyTyping, retry: () => setAttempt((n) => n + 1) };
}
