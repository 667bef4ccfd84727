import type { ComponentProps, FormEvent, ReactNode } from 'react';
import { Alert } from './alert';
import { Button } from './button';
import { DialogFooter, DialogHeader } from './dialog';
import { Modal } from './modal';

/**
 * The frame of a dialog that is a form: its title, what went wrong, the fields, «Cancelar» and the button
 * that confirms. Enter in a field confirms (a real form, the browser's own checks off); what is typed is
 * checked by the caller, whose message goes in `error`.
 */
type FrameProps = {
  error: string | null;
  pending: boolean;
  confirmLabel: ReactNode;
  onConfirm: () => unknown;
  children: ReactNode;
};

const submitted = (onConfirm: () => unknown) => (e: FormEvent) => {
  e.preventDefault();
  void onConfirm();
};

/** Inside a DialogContent (the caller's Dialog decides how it closes): header, fields and footer in one form. */
export function DialogForm({
  title,
  description,
  error,
  pending,
  confirmLabel,
  confirmVariant,
  onConfirm,
  onCancel,
  children,
}: FrameProps & {
  title: string;
  description?: ReactNode;
  confirmVariant?: ComponentProps<typeof Button>['variant'];
  onCancel: () => void;
}) {
  return (
    <form className="grid gap-5" noValidate onSubmit={submitted(onConfirm)}>
      <DialogHeader title={title} description={description} />
      {error ? <Alert variant="error">{error}</Alert> : null}
      {children}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel} disabled={pending}>
          Cancelar
        </Button>
        <Button type="submit" variant={confirmVariant} loading={pending}>
          {confirmLabel}
        </Button>
      </DialogFooter>
    </form>
  );
}

/**
 * A Modal whose body is the form and whose footer confirms it. Closing it (Escape, the cross, «Cancelar»)
 * goes through `onClose`, which asks before discarding what was typed (useConfirmDiscard: render its
 * dialog beside this one); while `dirty`, a click outside does not close it.
 */
export function ModalForm({
  id,
  title,
  description,
  size,
  dirty,
  onClose,
  error,
  pending,
  confirmLabel,
  onConfirm,
  className,
  children,
}: FrameProps & {
  id: string;
  title: string;
  description?: string;
  size?: 'sm' | 'md' | 'lg' | 'xl';
  dirty: boolean;
  onClose: () => void;
  className: string;
}) {
  return (
    <Modal
      open
      onOpenChange={(o) => (o ? undefined : onClose())}
      size={size}
      modalLock={dirty}
      title={title}
      description={description}
      footer={
        <>
          <Button type="button" variant="ghost" onClick={onClose}>
            Cancelar
          </Button>
          <Button type="submit" form={id} loading={pending}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <form id={id} noValidate className={className} onSubmit={submitted(onConfirm)}>
        {error ? <Alert variant="error">{error}</Alert> : null}
        {children}
      </form>
    </Modal>
  );
}
