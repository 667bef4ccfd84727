import { useRef } from 'react';
import { CircleAlert, Paperclip, X } from 'lucide-react';
import { ProgressBar } from '@/components/ui/progress-bar';
import { cn } from '@/lib/cn';
import type { PendingAttachment } from '../api/use-attachment';
import { CHAT_ATTACHMENT_ACCEPT as ATTACHMENT_ACCEPT } from '@divan/core';

/** «Adjuntar archivo»: a real button (keyboard, screen readers) that opens the hidden file input. */
export function AttachButton({ onPick, disabled }: { onPick: (file: File) => void; disabled: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        onClick={() => input.current?.click()}
        disabled={disabled}
        aria-label="Adjuntar archivo"
        title="Adjuntar archivo"
        className="grid size-10 shrink-0 cursor-pointer place-items-center rounded-xl text-muted-foreground transition-colors hover:bg-muted hover:text-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-55 [&_svg]:size-[1.125rem]"
      >
        <Paperclip aria-hidden />
      </button>
      <input
        ref={input}
        type="file"
        accept={ATTACHMENT_ACCEPT}
        className="sr-only"
        tabIndex={-1}
        aria-hidden
        data-testid="chat-attachment-input"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) onPick(file);
        }}
      />
    </>
  );
}

/** The chosen file before it goes: its name, the upload's progress or why it failed, and a way to take it off. */
export function AttachmentChip({
  attachment,
  onRemove,
  disabled,
}: {
  attachment: PendingAttachment;
  onRemove: () => void;
  disabled: boolean;
}) {
  const { file, status, progress, error } = attachment;
  return (
    <div
      className={cn('grid gap-1.5 rounded-lg border bg-background px-3 py-2 text-sm', status === 'error' && 'border-destructive/40')}
      aria-label="Archivo adjunto"
      role="group"
    >
      <div className="flex items-center gap-2">
        {status === 'error' ? (
          <CircleAlert className="size-4 shrink-0 text-destructive" aria-hidden />
        ) : (
          <Paperclip className="size-4 shrink-0 text-muted-foreground" aria-hidden />
        )}
        <span className="min-w-0 flex-1 truncate font-medium">{file.name}</span>
        {status === 'ready' ? <span className="shrink-0 text-xs text-muted-foreground">Listo para enviar</span> : null}
        <button
          type="button"
          onClick={onRemove}
          disabled={disabled}
          aria-label={`Quitar ${file.name}`}
          className="grid size-7 shrink-0 cursor-pointer place-items-center rounded-md text-muted-foreground hover:bg-muted hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-55"
        >
          <X className="size-4" aria-hidden />
        </button>
      </div>
      {status === 'uploading' ? <ProgressBar value={progress < 1 ? progress : null} label={`Subiendo ${file.name}`} /> : null}
      {error ? (
        <p role="alert" className="text-[0.8125rem] font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
