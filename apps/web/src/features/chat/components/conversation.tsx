import { Fragment, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowDown, MessagesSquare } from 'lucide-react';
import type { ChatCounters } from '@divan/core';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { EmptyState, LoadError } from '@/components/ui/states';
import { cn } from '@/lib/cn';
import { messageOf } from '@/lib/error-message';
import { chatKeys, markRead } from '../api/chat-api';
import { useConversation } from '../api/use-conversation';
import { applyCounter } from '../model/counters';
import { dayLabel, isNewerThan, newestPeerMessage, otherDay } from '../model/messages';
import { Composer } from './composer';
import { MessageBubble } from './message-bubble';
import { useFillHeight } from './use-fill-height';

type Props = {
  wid: string;
  pid: string;
  patientName: string;
  userId: string;
  /** Writing needs `patient_histories: create` on the file; without it the conversation is read only. */
  canWrite: boolean;
  /** Attaching a file needs creating and sharing the patient's documents too. */
  canAttach?: boolean;
  header?: ReactNode;
  className?: string;
  /** Take the height down to the bottom of the window (the patient file's tab); otherwise the parent sizes it. */
  fill?: boolean;
};

/** Near enough to the bottom to count as reading the latest messages. */
const BOTTOM_SLACK_PX = 80;

/**
 * A conversation with a patient, shared by `/chats/:id` and the patient file's «Chat» tab: newest at
 * the bottom, «Cargar anteriores» above, live messages, «Escribiendo…», the send box, and the
 * patient's messages marked read once they are on screen (scrolled to the bottom, the tab visible).
 */
export function Conversation({ wid, pid, patientName, userId, canWrite, canAttach = false, header, className, fill = false }: Props) {
  const c = useConversation(wid, pid);
  const [box, height] = useFillHeight<HTMLElement>();
  const qc = useQueryClient();
  const scroller = useRef<HTMLDivElement>(null);
  const [atBottom, setAtBottom] = useState(true);
  const [visible, setVisible] = useState(() => document.visibilityState === 'visible');
  const marked = useRef<string | null>(null);
  const prev = useRef<{ first?: string; last?: string; height: number }>({ height: 0 });

  // Keep the bottom in view as messages arrive; keep the reading place when older ones are added above.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const first = c.messages[0]?.id;
    const last = c.messages.at(-1)?.id;
    const p = prev.current;
    if (first !== p.first && last === p.last && p.height) el.scrollTop += el.scrollHeight - p.height;
    else if (last !== p.last) {
      const mine = c.messages.at(-1)?.sender.id === userId;
      if (!p.last || atBottomOf(el, p.height) || mine) el.scrollTop = el.scrollHeight;
    }
    prev.current = { first, last, height: el.scrollHeight };
  }, [c.messages, userId]);

  useEffect(() => {
    const onVisibility = () => setVisible(document.visibilityState === 'visible');
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, []);

  // What the patient wrote and is on screen is read: one call up to their newest message.
  useEffect(() => {
    if (c.status !== 'ready' || !atBottom || !visible) return;
    const peer = newestPeerMessage(c.messages);
    if (!peer || !isNewerThan(c.messages, peer.id, marked.current)) return;
    const counters = qc.getQueryData<ChatCounters>(chatKeys.counters(wid));
    const before = marked.current;
    marked.current = peer.id;
    // Opened with nothing unread (the live counters say so): no call, unless the message just arrived.
    if (before === null && counters && !counters[pid] && !isLive(peer.createdAt)) return;
    markRead(wid, pid, peer.id).then(
      ({ count }) => {
        const now = qc.getQueryData<ChatCounters>(chatKeys.counters(wid));
        const next = now ? applyCounter(now, pid, count) : 'refetch';
        if (next === 'refetch') void qc.invalidateQueries({ queryKey: chatKeys.counters(wid) });
        else if (next !== 'same') qc.setQueryData(chatKeys.counters(wid), next);
        void qc.invalidateQueries({ queryKey: chatKeys.lists(wid) });
      },
      () => {
        if (marked.current === peer.id) marked.current = before;
      },
    );
  }, [c.status, c.messages, atBottom, visible, wid, pid, qc]);

  const onScroll = () => {
    const el = scroller.current;
    if (el) setAtBottom(atBottomOf(el));
  };
  const toBottom = () => scroller.current?.scrollTo({ top: scroller.current.scrollHeight, behavior: 'smooth' });

  return (
    <section
      ref={box}
      style={fill ? { height } : undefined}
      aria-label={`Conversación con ${patientName}`}
      className={cn('relative flex min-h-0 flex-col overflow-hidden bg-muted/40', className)}
    >
      {header}
      {/* Focusable, so the keyboard scrolls it too; a log, so new messages are read out. */}
      <div
        ref={scroller}
        onScroll={onScroll}
        role="log"
        aria-label="Mensajes"
        tabIndex={0}
        className="min-h-0 flex-1 overflow-y-auto px-3 py-4 outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring sm:px-5"
        aria-busy={c.status === 'loading'}
      >
        {c.status === 'loading' ? (
          <div className="grid h-full place-items-center">
            <Spinner label="Cargando mensajes" />
          </div>
        ) : c.status === 'error' ? (
          <LoadError error={c.error} onRetry={c.retry} what="la conversación" />
        ) : c.messages.length === 0 ? (
          <EmptyState
            icon={<MessagesSquare aria-hidden />}
            title="Aún no hay mensajes"
            text={
              canWrite
                ? `Lo que escribas aquí le llegará a ${patientName} en su espacio de paciente de Diván.`
                : 'Cuando haya mensajes, aparecerán aquí.'
            }
          />
        ) : (
          <div className="grid gap-3">
            <div className="grid justify-items-center gap-1">
              {c.older ? (
                <Button
                  variant="outline"
                  size="sm"
                  loading={c.loadingOlder}
                  // At the beginning the button goes away: the keyboard's place moves to the messages, not to the page's top.
                  onClick={() =>
                    void c
                      .loadOlder()
                      .then(() =>
                        setTimeout(() => document.activeElement === document.body && scroller.current?.focus({ preventScroll: true })),
                      )
                  }
                >
                  Cargar anteriores
                </Button>
              ) : (
                <p className="text-xs text-muted-foreground">Inicio de la conversación</p>
              )}
              {c.olderError ? (
                <p role="alert" className="text-[0.8125rem] text-destructive">
                  No se pudieron cargar los mensajes anteriores. {messageOf(c.olderError)}
                </p>
              ) : null}
            </div>
            <ol className="grid gap-2">
              {c.messages.map((m, i) => (
                <Fragment key={m.id}>
                  {i === 0 || otherDay(c.messages[i - 1]!.createdAt, m.createdAt) ? (
                    <li className="flex justify-center py-1">
                      <span className="rounded-full bg-card px-2.5 py-0.5 text-xs font-medium text-muted-foreground shadow-xs ring-1 ring-border">
                        {dayLabel(m.createdAt)}
                      </span>
                    </li>
                  ) : null}
                  <MessageBubble
                    message={m}
                    wid={wid}
                    mine={m.sender.kind === 'member' && m.sender.id === userId}
                    patientName={patientName}
                    showName={
                      i === 0 || c.messages[i - 1]!.sender.id !== m.sender.id || otherDay(c.messages[i - 1]!.createdAt, m.createdAt)
                    }
                  />
                </Fragment>
              ))}
            </ol>
          </div>
        )}
      </div>
      <div aria-live="polite" className="min-h-0 px-4 text-[0.8125rem] italic text-muted-foreground">
        {c.typing ? <p className="py-1">{patientName} · Escribiendo…</p> : null}
      </div>
      {!atBottom && c.messages.length > 0 ? (
        <button
          type="button"
          onClick={toBottom}
          className="absolute bottom-24 right-4 inline-flex h-8 items-center gap-1.5 rounded-full border bg-card px-3 text-[0.8125rem] font-medium shadow-md hover:bg-muted focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring [&_svg]:size-4"
        >
          <ArrowDown aria-hidden /> Ir al último
        </button>
      ) : null}
      {canWrite ? (
        <Composer wid={wid} pid={pid} onSend={c.send} onTyping={c.notifyTyping} patientName={patientName} canAttach={canAttach} />
      ) : (
        <p className="border-t bg-card px-4 py-3 text-sm text-muted-foreground">
          Puedes leer esta conversación, pero tus permisos no te dejan escribir en ella.
        </p>
      )}
    </section>
  );
}

function atBottomOf(el: HTMLElement, height = el.scrollHeight): boolean {
  return height - el.scrollTop - el.clientHeight < BOTTOM_SLACK_PX;
}

/** A message of the last minute (sent since the counters were fetched): worth a read mark even if the counters have not caught up. */
const isLive = (iso: string) => Date.now() - new Date(iso).getTime() < 60_000;
