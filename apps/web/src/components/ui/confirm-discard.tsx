import { useCallback, useRef, useState, type ReactNode } from 'react';
import { AlertDialog as A } from 'radix-ui';
import { useUnsavedChanges } from '@/lib/unsaved-changes';
import { Button } from './button';
import { useDialogFocus } from './dialog-focus';

type DiscardTexts = { title?: string; description?: ReactNode; confirmLabel?: string; cancelLabel?: string };

export const DISCARD_TEXTS = {
  title: '¿Descartar los cambios?',
  description: 'Has escrito cambios que aún no has guardado. Si sales ahora, se perderán.',
  confirmLabel: 'Descartar cambios',
  cancelLabel: 'Seguir editando',
} as const;

/** The question itself: focus starts on «Seguir editando», so Enter or Esc keep the work. */
export function DiscardDialog({
  open,
  onKeep,
  onDiscard,
  texts = {},
}: {
  open: boolean;
  onKeep: () => void;
  onDiscard: () => void;
  texts?: DiscardTexts;
}) {
  const focus = useDialogFocus({ firstField: false });
  return (
    <A.Root
      open={open}
      onOpenChange={(next) => {
        if (!next) onKeep();
      }}
    >
      <A.Portal>
        <A.Overlay className="fixed inset-0 z-50 bg-black/40 backdrop-blur-[1px]" />
        <A.Content
          {...focus}
          className="fixed left-1/2 top-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 gap-5 overflow-y-auto rounded-xl border bg-card p-5 text-card-foreground shadow-2xl outline-none sm:p-6"
        >
          <div className="grid gap-1.5">
            <A.Title className="font-display text-xl font-semibold leading-tight tracking-tight">
              {texts.title ?? DISCARD_TEXTS.title}
            </A.Title>
            <A.Description className="text-sm leading-relaxed text-muted-foreground">
              {texts.description ?? DISCARD_TEXTS.description}
            </A.Description>
          </div>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <A.Cancel asChild>
              <Button variant="outline">{texts.cancelLabel ?? DISCARD_TEXTS.cancelLabel}</Button>
            </A.Cancel>
            {/* Not an A.Action: that would also report a close, which means "keep". */}
            <Button variant="destructive" onClick={onDiscard}>
              {texts.confirmLabel ?? DISCARD_TEXTS.confirmLabel}
            </Button>
          </div>
        </A.Content>
      </A.Portal>
    </A.Root>
  );
}

/**
 * Ask before throwing typed work away. Route changes and reloads are asked by the shell (the form is
 * registered while `isDirty`); a dialog wraps its own closes:
 *
 * ```tsx
 * const discard = useConfirmDiscard(form.formState.isDirty);
 * const close = () => discard.confirm(() => { form.reset(); onOpenChange(false); });
 * <Modal onOpenChange={(o) => (o ? onOpenChange(true) : close())}>…</Modal>{discard.dialog}
 * ```
 * `release()` before navigating away after a save, so the shell does not ask about work just kept.
 */
export function useConfirmDiscard(isDirty: boolean, texts?: DiscardTexts) {
  const { release } = useUnsavedChanges(isDirty);
  const pending = useRef<(() => void) | null>(null);
  const [asking, setAsking] = useState(false);

  const confirm = useCallback(
    (discard: () => void) => {
      if (!isDirty) return discard();
      pending.current = discard;
      setAsking(true);
    },
    [isDirty],
  );

  const dialog = (
    <DiscardDialog
      open={asking}
      texts={texts}
      onKeep={() => {
        pending.current = null;
        setAsking(false);
      }}
      onDiscard={() => {
        const run = pending.current;
        pending.current = null;
        setAsking(false);
        release();
        run?.();
      }}
    />
  );

  return { confirm, dialog, release };
}
