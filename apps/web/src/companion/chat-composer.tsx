import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import {
  CHAT_ATTACHMENT_ACCEPT,
  CHAT_MESSAGE_MAX,
  CHAT_TYPING_MIN_INTERVAL_MS,
  chatAttachmentProblem,
  chatBodyWithAttachment,
  type ChatAttachment,
} from '@divan/core';
import { uploadAttachment } from './chat-attach';
import { asFailure, isAbort, messageOf } from './errors';
import { sendTyping } from './live';
import { formatSize } from './session-format';
import { Alert, Button } from './ui';

/** A chosen file: uploaded when the message goes (kept once uploaded, so a failed send does not upload twice). */
type Chosen = { file: File; uploaded: ChatAttachment | null };

/**
 * The box at the bottom of the chat: Enter sends, Shift+Enter breaks the line, «Adjuntar archivo» adds
 * one file (the documents' types and 20 MB), uploaded with a progress bar when sending. What was typed
 * and chosen stays when something fails.
 */
export function Composer({ fileId, onSend }: { fileId: string; onSend: (body: string, attachmentDocumentId?: string) => Promise<void> }) {
  const [text, setText] = useState('');
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const lastTyping = useRef(0);
  const input = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const aborter = useRef<AbortController | null>(null);
  useEffect(() => {
    const el = input.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, 160)}px`;
  }, [text]);
  useEffect(() => () => aborter.current?.abort(), []);

  const choose = (file: File | undefined) => {
    if (!file) return;
    const problem = chatAttachmentProblem(file);
    setError(problem);
    if (!problem) setChosen({ file, uploaded: null });
  };
  const remove = () => {
    aborter.current?.abort();
    setChosen(null);
    setError(null);
    document.getElementById('chat-attach')?.focus();
  };

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    const body = chatBodyWithAttachment(text, chosen?.file.name ?? null);
    if (!body || sending) return;
    setSending(true);
    setError(null);
    try {
      let attachment = chosen?.uploaded ?? null;
      if (chosen && !attachment) {
        aborter.current = new AbortController();
        setProgress(0);
        attachment = await uploadAttachment(fileId, chosen.file, setProgress, aborter.current.signal);
        const uploaded = attachment;
        setChosen((c) => (c ? { ...c, uploaded } : c));
      }
      await onSend(body, attachment?.documentId);
      setText('');
      setChosen(null);
    } catch (err) {
      if (!isAbort(err)) setError(messageOf(asFailure(err)));
    } finally {
      setSending(false);
      setProgress(null);
      aborter.current = null;
      input.current?.focus();
    }
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} className="grid gap-2 border-t bg-card p-2.5 sm:p-3">
      {error ? <Alert className="text-sm">{error}</Alert> : null}
      {chosen ? (
        <div className="grid gap-1.5 rounded-lg border bg-background px-3 py-2 text-sm" data-testid="chat-attachment-chosen">
          <div className="flex items-center gap-2">
            <span className="min-w-0 flex-1 truncate font-medium">{chosen.file.name}</span>
            <span className="shrink-0 text-muted-foreground">{formatSize(chosen.file.size)}</span>
            <Button variant="ghost" className="min-h-9 px-2 text-sm" onClick={remove} aria-label={`Quitar ${chosen.file.name}`}>
              Quitar
            </Button>
          </div>
          {progress !== null ? (
            <div
              role="progressbar"
              aria-label={`Subiendo ${chosen.file.name}`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Math.round(progress * 100)}
              className="h-1.5 overflow-hidden rounded-full bg-muted"
            >
              <div className="h-full rounded-full bg-primary transition-[width]" style={{ width: `${Math.round(progress * 100)}%` }} />
            </div>
          ) : null}
        </div>
      ) : null}
      <div className="flex items-end gap-2">
        <input
          ref={picker}
          type="file"
          className="sr-only"
          tabIndex={-1}
          aria-hidden
          accept={CHAT_ATTACHMENT_ACCEPT}
          onChange={(e) => {
            choose(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
        <Button
          id="chat-attach"
          variant="ghost"
          className="size-11 shrink-0 rounded-xl px-0"
          aria-label="Adjuntar archivo"
          title="Adjuntar archivo"
          disabled={sending}
          onClick={() => picker.current?.click()}
        >
          <svg
            aria-hidden
            viewBox="0 0 24 24"
            className="size-5"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
          >
            <path d="m21.44 11.05-9.19 9.19a6 6 0 0 1-8.49-8.49l8.57-8.57A4 4 0 1 1 18 8.84l-8.59 8.57a2 2 0 0 1-2.83-2.83l8.49-8.48" />
          </svg>
        </Button>
        <label htmlFor="chat-input" className="sr-only">
          Mensaje
        </label>
        <textarea
          ref={input}
          id="chat-input"
          rows={1}
          maxLength={CHAT_MESSAGE_MAX}
          placeholder="Escribe un mensaje"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            const now = Date.now();
            if (now - lastTyping.current > CHAT_TYPING_MIN_INTERVAL_MS) {
              lastTyping.current = now;
              sendTyping(fileId);
            }
          }}
          onKeyDown={onKeyDown}
          className="block max-h-40 min-h-11 min-w-0 flex-1 resize-none rounded-xl border border-input bg-background px-3 py-2.5 text-base leading-snug outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/30"
        />
        <Button type="submit" loading={sending} disabled={!text.trim() && !chosen} className="rounded-xl">
          Enviar
        </Button>
      </div>
    </form>
  );
}
