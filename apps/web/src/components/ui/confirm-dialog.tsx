import { useState, type ReactNode } from 'react';
import { AlertDialog as A } from 'radix-ui';
import { Alert } from './alert';
import { Button } from './button';
import { useDialogFocus } from './dialog-focus';

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  /** Rejections are shown inside the dialog, so the user sees why and can cancel. */
  onConfirm: () => Promise<unknown>;
  destructive?: boolean;
  children?: ReactNode;
  /** When false, the confirm button stays disabled (e.g. until a word is typed). */
  canConfirm?: boolean;
};

/** Asks before anything that cannot be undone; focus starts on the cancel button. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  cancelLabel = 'Cancelar',
  onConfirm,
  destructive = true,
  children,
  canConfirm = true,
}: Props) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A field to type (e.g. DESACTIVAR) gets the focus; otherwise «Cancelar» (Radix's choice) does.
  const focus = useDialogFocus({ firstField: !!children });

  const change = (next: boolean) => {
    if (pending) return;
    if (!next) setError(null);
    onOpenChange(next);
  };

  const confirm = async () => {
    setPending(true);
    setError(null);
    try {
      await onConfirm();
      onOpenChange(false);
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Error inesperado.');
    } finally {
      setPending(false);
    }
  };

  return (
    <A.Root open={open} onOpenChange={change}>
      <A.Portal>
        <A.Overlay className="fixed inset-0 z-50 bg-black/40 backdrop-blur-[1px]" />
        <A.Content
          {...focus}
          className="fixed left-1/2 top-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 gap-5 overflow-y-auto rounded-xl border bg-card p-5 text-card-foreground shadow-2xl outline-none sm:p-6"
        >
          <div className="grid gap-1.5">
            <A.Title className="font-display text-xl font-semibold leading-tight tracking-tight">{title}</A.Title>
            <A.Description className="text-sm leading-relaxed text-muted-foreground">{description}</A.Description>
          </div>
          {children}
          {error ? <Alert variant="error">{error}</Alert> : null}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <A.Cancel asChild>
              <Button variant="outline" disabled={pending}>
                {cancelLabel}
              </Button>
            </A.Cancel>
            <Button
              variant={destructive ? 'destructive' : 'default'}
              loading={pending}
              disabled={!canConfirm}
              onClick={() => void confirm()}
            >
              {confirmLabel}
            </Button>
          </div>
        </A.Content>
      </A.Portal>
    </A.Root>
  );
}
