import { useState } from 'react';
import { Bot, Paperclip } from 'lucide-react';
import type { ChatMessage } from '@divan/core';
import { cn } from '@/lib/cn';
import { messageOf } from '@/lib/error-message';
import { downloadFile } from '@/lib/file-transfer';
import { formatTime } from '@/lib/format';
import { toast } from '@/lib/toast';
import { chatRepeatsAttachment as repeatsAttachment } from '@divan/core';

type Props = { message: ChatMessage; wid: string; mine: boolean; patientName: string; showName: boolean };

const LOOK = {
  theirs: { bubble: 'rounded-bl-md border bg-card text-card-foreground', meta: 'text-muted-foreground' },
  ours: { bubble: 'rounded-br-md bg-primary text-primary-foreground', meta: 'text-primary-foreground' },
  automatic: {
    bubble: 'rounded-br-md border border-dashed border-primary/60 bg-accent text-accent-foreground',
    meta: 'text-accent-foreground',
  },
} as const;

/**
 * One message: the patient's on the left, the practice's on the right, the automatic reply flagged.
 * `showName`: another member's name above their message when it starts a run (a clinic answering
 * for the therapist); the patient is named by the conversation itself.
 */
export function MessageBubble({ message, wid, mine, patientName, showName }: Props) {
  const ours = message.sender.kind === 'member';
  const who = ours ? (mine ? 'Tú' : message.sender.name || 'Tu consulta') : patientName;
  const look = LOOK[message.automatic ? 'automatic' : ours ? 'ours' : 'theirs'];
  return (
    <li className={cn('flex', ours ? 'justify-end' : 'justify-start')} data-message-id={message.id}>
      <div className={cn('grid max-w-[85%] gap-1 rounded-2xl px-3.5 py-2 text-[0.9375rem] shadow-xs sm:max-w-[75%]', look.bubble)}>
        <span className="sr-only">{who}: </span>
        {ours && !mine && showName ? (
          <span className={cn('text-xs font-semibold', look.meta)} aria-hidden>
            {who}
          </span>
        ) : null}
        {message.automatic ? (
          <span className="inline-flex items-center gap-1 text-xs font-semibold">
            <Bot className="size-3.5" aria-hidden /> Respuesta automática
          </span>
        ) : null}
        {/* A file sent alone carries its name as the text: the attachment's button already says it. */}
        {repeatsAttachment(message.body, message.attachment) ? null : (
          <p className="whitespace-pre-wrap break-words leading-snug">{message.body}</p>
        )}
        {message.attachment ? (
          <Attachment wid={wid} pid={message.patientFileId} attachment={message.attachment} onPrimary={ours && !message.automatic} />
        ) : null}
        <time dateTime={message.createdAt} className={cn('justify-self-end text-[0.6875rem] tabular-nums', look.meta)}>
          {formatTime(message.createdAt)}
        </time>
      </div>
    </li>
  );
}

/** A patient document attached to the message: downloaded with the session's token, as in the documents tab. */
function Attachment({
  wid,
  pid,
  attachment,
  onPrimary,
}: {
  wid: string;
  pid: string;
  attachment: { documentId: string; name: string };
  onPrimary: boolean;
}) {
  const [busy, setBusy] = useState(false);
  const open = async () => {
    setBusy(true);
    try {
      await downloadFile(`/workspaces/${wid}/patients/${pid}/documents/${attachment.documentId}/download`, attachment.name);
    } catch (error) {
      toast.error(`No se pudo descargar «${attachment.name}». ${messageOf(error)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <button
      type="button"
      onClick={() => void open()}
      disabled={busy}
      className={cn(
        'inline-flex max-w-full items-center gap-1.5 justify-self-start rounded-md px-2 py-1 text-sm font-medium underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:opacity-60',
        onPrimary ? 'bg-primary-foreground/15' : 'bg-muted',
      )}
    >
      <Paperclip className="size-4 shrink-0" aria-hidden />
      <span className="truncate">{attachment.name}</span>
      <span className="sr-only">(descargar documento)</span>
    </button>
  );
}
