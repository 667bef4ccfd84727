import { useLayoutEffect, useRef, useState } from 'react';
import { chatRepeatsAttachment, type ChatMessage } from '@divan/core';
import { documentsApi } from './api';
import { asFailure, messageOf } from './errors';
import { formatWhen } from './format';
import { saveBlob } from './save-blob';
import { Button, cx, ErrorState, Skeleton } from './ui';
import { Composer } from './chat-composer';
import { useChat } from './use-chat';

/** «Chat» of a connected file: the conversation with the therapist's side, newest at the bottom. */
export function ChatPanel({ fileId, therapist }: { fileId: string; therapist: string }) {
  const chat = useChat(fileId);
  const list = useRef<HTMLOListElement>(null);
  const nearBottom = useRef(true);
  const count = chat.messages.length;
  const lastId = chat.messages.at(-1)?.id;

  // Stay at the bottom as messages arrive, unless the patient scrolled up to read older ones.
  useLayoutEffect(() => {
    const el = list.current;
    if (el && nearBottom.current) el.scrollTop = el.scrollHeight;
  }, [lastId, chat.typing, chat.loaded]);

  if (chat.failure && !chat.loaded) return <ErrorState message={messageOf(chat.failure)} retry={chat.retry} />;
  return (
    <section
      aria-label="Chat"
      className="flex h-[calc(100dvh-15rem)] min-h-[22rem] flex-col overflow-hidden rounded-2xl border bg-card shadow-sm"
    >
      <ol
        ref={list}
        aria-label={`Mensajes con ${therapist}`}
        aria-live="polite"
        aria-relevant="additions"
        tabIndex={0}
        data-testid="chat-messages"
        onScroll={(e) => {
          const el = e.currentTarget;
          nearBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
        }}
        className="flex flex-1 flex-col gap-2 overflow-y-auto px-3 py-4 outline-none focus-visible:ring-2 focus-visible:ring-ring/40 sm:px-5"
      >
        {chat.hasOlder ? (
          <li className="self-center">
            <Button variant="ghost" className="text-sm" loading={chat.loadingOlder} onClick={() => void chat.loadOlder()}>
              Cargar anteriores
            </Button>
          </li>
        ) : null}
        {!chat.loaded ? (
          <li aria-busy="true" aria-label="Cargando" className="grid gap-3">
            <Skeleton className="h-12 w-2/3" />
            <Skeleton className="h-12 w-1/2 justify-self-end" />
          </li>
        ) : count === 0 ? (
          <li className="m-auto max-w-xs text-center text-[0.9375rem] text-muted-foreground">
            Aún no hay mensajes. Escribe a {therapist} cuando lo necesites; te responderá en cuanto pueda.
          </li>
        ) : (
          chat.messages.map((m) => <Bubble key={m.id} fileId={fileId} message={m} />)
        )}
        {chat.typing ? (
          <li className="text-sm italic text-muted-foreground" data-testid="chat-typing">
            Escribiendo…
          </li>
        ) : null}
      </ol>
      <Composer fileId={fileId} onSend={chat.send} />
    </section>
  );
}

/** A document sent in the chat: downloaded with the patient's token (it is shared with them when sent). */
function Attachment({ fileId, attachment }: { fileId: string; attachment: NonNullable<ChatMessage['attachment']> }) {
  const [state, setState] = useState<'idle' | 'busy' | string>('idle');
  const open = async () => {
    setState('busy');
    try {
      saveBlob(await documentsApi.download(fileId, attachment.documentId), attachment.name);
      setState('idle');
    } catch (e) {
      setState(messageOf(asFailure(e)));
    }
  };
  return (
    <span className="mt-1 block">
      <button
        type="button"
        onClick={() => void open()}
        disabled={state === 'busy'}
        aria-label={`Descargar ${attachment.name}`}
        className="inline-flex min-h-9 max-w-full items-center gap-1.5 rounded-lg border border-current/30 px-2.5 text-left text-sm underline-offset-2 hover:underline disabled:opacity-70"
      >
        <svg
          aria-hidden
          viewBox="0 0 24 24"
          className="size-4 shrink-0"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        >
          <path d="m21.44 11.05-9.19 9.19a6 6 0 0 1-8.49-8.49l8.57-8.57A4 4 0 1 1 18 8.84l-8.59 8.57a2 2 0 0 1-2.83-2.83l8.49-8.48" />
        </svg>
        <span className="truncate">{attachment.name}</span>
      </button>
      {state !== 'idle' && state !== 'busy' ? (
        <span role="alert" className="mt-1 block text-xs">
          {state}
        </span>
      ) : null}
    </span>
  );
}

function Bubble({ fileId, message: m }: { fileId: string; message: ChatMessage }) {
  const mine = m.sender.kind === 'patient';
  return (
    <li
      className={cx('flex max-w-[85%] flex-col gap-0.5', mine ? 'items-end self-end' : 'items-start self-start')}
      data-testid="chat-message"
    >
      <div
        className={cx(
          'whitespace-pre-wrap break-words rounded-2xl px-3.5 py-2 text-[0.9375rem] leading-snug',
          mine ? 'rounded-br-md bg-primary text-primary-foreground' : 'rounded-bl-md bg-muted text-foreground',
        )}
      >
        {/* A file sent alone carries its name as the text: shown once, as the attachment. */}
        {chatRepeatsAttachment(m.body, m.attachment) ? null : m.body}
        {m.attachment ? <Attachment fileId={fileId} attachment={m.attachment} /> : null}
      </div>
      <span className="px-1 text-xs text-muted-foreground">
        {mine ? 'Tú' : (m.sender.name ?? 'Tu terapeuta')}
        {m.automatic ? ' · respuesta automática' : ''} · <time dateTime={m.createdAt}>{formatWhen(m.createdAt)}</time>
      </span>
    </li>
  );
}
