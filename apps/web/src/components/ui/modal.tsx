import type { ReactNode } from 'react';
import { Dialog as D } from 'radix-ui';
import { X } from 'lucide-react';
import { cn } from '@/lib/cn';
import { useDialogFocus } from '@/components/ui/dialog-focus';

type ModalProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg' | 'xl';
  /** Keeps the dialog open on outside clicks, e.g. while a form has unsaved text. */
  modalLock?: boolean;
};

const widths = { sm: 'max-w-md', md: 'max-w-xl', lg: 'max-w-3xl', xl: 'max-w-5xl' };

/**
 * A centred dialog with a fixed header and footer and a scrolling body; full-height on phones.
 */
export function Modal({ open, onOpenChange, title, description, children, footer, size = 'md', modalLock }: ModalProps) {
  const focus = useDialogFocus();
  return (
    <D.Root open={open} onOpenChange={onOpenChange}>
      <D.Portal>
        <D.Overlay className="fixed inset-0 z-50 bg-black/40 backdrop-blur-[1px]" />
        <D.Content
          {...(description ? {} : { 'aria-describedby': undefined })}
          onInteractOutside={modalLock ? (e) => e.preventDefault() : undefined}
          {...focus}
          className={cn(
            'fixed inset-x-0 bottom-0 top-0 z-50 flex flex-col bg-card text-card-foreground shadow-2xl outline-none sm:inset-auto sm:left-1/2 sm:top-1/2 sm:max-h-[min(90dvh,56rem)] sm:w-[calc(100%-2rem)] sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-xl sm:border',
            widths[size],
          )}
        >
          <div className="flex items-start gap-3 border-b px-5 py-4 sm:px-6">
            <div className="grid min-w-0 flex-1 gap-1">
              <D.Title className="text-lg font-semibold leading-tight">{title}</D.Title>
              {description ? <D.Description className="text-sm text-muted-foreground">{description}</D.Description> : null}
            </div>
            <D.Close className="-mr-1.5 rounded-md p-1.5 text-muted-foreground hover:bg-muted hover:text-foreground" aria-label="Cerrar">
              <X className="size-5" aria-hidden />
            </D.Close>
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto px-5 py-5 sm:px-6">{children}</div>
          {footer ? (
            <div className="flex flex-wrap items-center justify-end gap-2 border-t bg-muted/40 px-5 py-3 sm:rounded-b-xl sm:px-6">
              {footer}
            </div>
          ) : null}
        </D.Content>
      </D.Portal>
    </D.Root>
  );
}
