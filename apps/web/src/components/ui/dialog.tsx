import type { ComponentProps, ReactNode } from 'react';
import { Dialog as D } from 'radix-ui';
import { X } from 'lucide-react';
import { cn } from '@/lib/cn';
import { useDialogFocus } from './dialog-focus';

export const Dialog = D.Root;
export const DialogTrigger = D.Trigger;
export const DialogClose = D.Close;
export const DialogTitle = D.Title;
export const DialogDescription = D.Description;

function Overlay() {
  return <D.Overlay className="fixed inset-0 z-50 bg-black/40 backdrop-blur-[1px]" />;
}

/** A panel that slides from the left edge: the sidebar on small screens. */
export function SheetContent({ className, children, ...props }: ComponentProps<typeof D.Content>) {
  return (
    <D.Portal>
      <Overlay />
      <D.Content
        className={cn('fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col bg-sidebar shadow-xl outline-none', className)}
        {...props}
      >
        {children}
        <D.Close
          className="absolute right-3 top-3 rounded-md p-1.5 text-muted-foreground hover:bg-muted hover:text-foreground"
          aria-label="Cerrar menú"
        >
          <X className="size-5" aria-hidden />
        </D.Close>
      </D.Content>
    </D.Portal>
  );
}

/** A centred modal panel; on phones it takes the width and scrolls inside when taller than the screen. */
export function DialogContent({ className, children, ...props }: ComponentProps<typeof D.Content>) {
  const focus = useDialogFocus();
  return (
    <D.Portal>
      <Overlay />
      <D.Content
        {...focus}
        className={cn(
          'fixed left-1/2 top-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] -translate-x-1/2 -translate-y-1/2 gap-5 overflow-y-auto rounded-xl border bg-card p-5 text-card-foreground shadow-2xl outline-none sm:p-6',
          className ?? 'max-w-lg',
        )}
        {...props}
      >
        {children}
        <D.Close
          className="absolute right-3 top-3 rounded-md p-1.5 text-muted-foreground hover:bg-muted hover:text-foreground"
          aria-label="Cerrar"
        >
          <X className="size-5" aria-hidden />
        </D.Close>
      </D.Content>
    </D.Portal>
  );
}

export function DialogHeader({ title, description }: { title: ReactNode; description?: ReactNode }) {
  return (
    <div className="grid gap-1.5 pr-8">
      <D.Title className="font-display text-xl font-semibold leading-tight tracking-tight">{title}</D.Title>
      {description ? <D.Description className="text-sm leading-relaxed text-muted-foreground">{description}</D.Description> : null}
    </div>
  );
}

export function DialogFooter({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('flex flex-col-reverse gap-2 sm:flex-row sm:justify-end', className)} {...props} />;
}
