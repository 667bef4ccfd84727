import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { Loader2, SendHorizontal } from 'lucide-react';
import { CHAT_MESSAGE_MAX } from '@divan/core';
import { inputBase } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import { messageOf } from '@/lib/error-message';
import { useAttachment } from '../api/use-attachment';
import { chatBodyWithAttachment as bodyWithAttachment } from '@divan/core';
import { AttachButton, AttachmentChip } from './attachment-chip';

type Props = {
  wid: string;
  pid: string;
  onSend: (body: string, attachmentDocumentId?: string) => Promise<unknown>;
  onTyping: () => void;
  patientName: string;
  /** «Adjuntar archivo» needs creating and sharing the patient's documents. */
  canAttach: boolean;
};

/**
 * The send box: Enter sends, Shift+Enter starts a new line, the paperclip attaches a file (uploaded
 * as a patient document at once; the message may then go with no text). What was typed and the file
 * stay until the server has the message; a failure says why in Spanish and keeps both to try again.
 */
export function Composer({ wid, pid, onSend, onTyping, patientName, canAttach }: Props) {
  const [text, setText] = useState('');
  const attach = useAttachment(wid, pid);
  const file = attach.pending;
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  const errorId = useId();
  const hintId = useId();
  const body = bodyWithAttachment(text, file?.status === 'ready' ? file.file.name : null);
  const tooLong = body.length > CHAT_MESSAGE_MAX;
  // A file still uploading or refused holds the message back (take it off to send the text alone).
  const blocked = !!file && file.status !== 'ready';

  const send = async () => {
    if (!body || sending || blocked) return;
    if (tooLong) return setError(`El mensaje no puede superar ${CHAT_MESSAGE_MAX.toLocaleString('es-ES')} caracteres.`);
    setSending(true);
    setError(null);
    try {
      const documentId = await attach.prepare();
      await onSend(body, documentId);
      setText('');
      attach.sent();
    } catch (e) {
      setError(`No se ha enviado el mensaje. ${messageOf(e)}`);
    } finally {
      setSending(false);
      area.current?.focus();
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  };

  return (
    <form
      className="grid gap-1.5 border-t bg-card px-3 py-3 sm:px-4"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      {error ? (
        <p id={errorId} role="alert" className="text-[0.8125rem] font-medium text-destructive">
          {error}
        </p>
      ) : null}
      {file ? <AttachmentChip attachment={file} onRemove={attach.remove} disabled={sending} /> : null}
      <div className="flex items-end gap-2">
        {canAttach ? <AttachButton onPick={attach.pick} disabled={sending} /> : null}
        <label htmlFor={`${hintId}-area`} className="sr-only">
          Mensaje para {patientName}
        </label>
        <textarea
          id={`${hintId}-area`}
          ref={area}
          rows={1}
          value={text}
          readOnly={sending}
          placeholder="Escribe un mensaje…"
          aria-describedby={[error ? errorId : null, hintId].filter(Boolean).join(' ')}
          aria-invalid={tooLong || undefined}
          onChange={(e) => {
            setText(e.target.value);
            if (error) setError(null);
            if (e.target.value.trim()) onTyping();
          }}
          onKeyDown={onKeyDown}
          className={cn(
            inputBase,
            'field-sizing-content max-h-40 min-h-10 flex-1 resize-none rounded-xl py-2 text-[0.9375rem] leading-snug',
          )}
        />
        <button
          type="submit"
          disabled={!body || sending || blocked}
          aria-busy={sending || undefined}
          aria-label="Enviar mensaje"
          className="grid size-10 shrink-0 cursor-pointer place-items-center rounded-xl bg-primary text-primary-foreground shadow-sm transition-colors hover:bg-primary-hover focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-55 [&_svg]:size-[1.125rem]"
        >
          {sending ? <Loader2 className="animate-spin" aria-hidden /> : <SendHorizontal aria-hidden />}
        </button>
      </div>
      <p id={hintId} className="hidden text-xs text-muted-foreground sm:block">
        Intro para enviar · Mayús + Intro para una línea nueva
      </p>
    </form>
  );
}
