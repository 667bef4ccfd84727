import { useEffect, useRef, type ReactNode } from 'react';
import { Alert, Button, h2Class } from './ui';

type Props = {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  keepLabel: string;
  busy: boolean;
  error: string | null;
  onConfirm: () => void;
  onClose: () => void;
};

/**
 * A question before something that cannot be undone, as a modal <dialog>: the browser keeps the focus
 * inside and closes it with Escape; it opens on the safe answer and gives the focus back on closing.
 */
export function ConfirmDialog({ title, children, confirmLabel, keepLabel, busy, error, onConfirm, onClose }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement as HTMLElement | null;
    if (dialog && !dialog.open) dialog.showModal?.();
    dialog?.querySelector<HTMLButtonElement>('[data-keep]')?.focus();
    return () => {
      if (dialog?.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      aria-labelledby="confirm-title"
      aria-describedby="confirm-text"
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) onClose();
      }}
      className="m-auto w-[min(100vw-2rem,28rem)] rounded-2xl border bg-card p-5 text-foreground shadow-lg backdrop:bg-black/40"
    >
      <div className="grid gap-4">
        <h2 id="confirm-title" className={h2Class}>
          {title}
        </h2>
        <div id="confirm-text" className="grid gap-2 text-[0.9375rem] text-muted-foreground">
          {children}
        </div>
        {error ? <Alert>{error}</Alert> : null}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" data-keep onClick={onClose} disabled={busy}>
            {keepLabel}
          </Button>
          <Button variant="danger" loading={busy} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </div>
      </div>
    </dialog>
  );
}
