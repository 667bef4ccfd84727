import { AlertDialog as A } from 'radix-ui';
import { Button } from '@/components/ui/button';
import { useDialogFocus } from '@/components/ui/dialog-focus';
import type { GridSession, Scope } from '../api/types';
import { SCOPE_LABELS } from './scope-field';

/** After dragging an occurrence of a series: move only it, it and the following, or all. Esc puts it back. */
export function DragScopeDialog({ session, onChoose }: { session: GridSession; onChoose: (scope: Scope | null) => void }) {
  const focus = useDialogFocus({ firstField: false });
  return (
    <A.Root open onOpenChange={(open) => (open ? undefined : onChoose(null))}>
      <A.Portal>
        <A.Overlay className="fixed inset-0 z-50 bg-black/40 backdrop-blur-[1px]" />
        <A.Content
          {...focus}
          className="fixed left-1/2 top-1/2 z-50 grid w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 gap-5 rounded-xl border bg-card p-5 text-card-foreground shadow-2xl outline-none sm:p-6"
        >
          <div className="grid gap-1.5">
            <A.Title className="font-display text-xl font-semibold leading-tight tracking-tight">Esta sesión es parte de una serie</A.Title>
            <A.Description className="text-sm leading-relaxed text-muted-foreground">
              {session.patient.name} · {session.series?.description}. ¿Qué sesiones cambian?
            </A.Description>
          </div>
          <div className="grid gap-2">
            {(Object.keys(SCOPE_LABELS) as Scope[]).map((s) => (
              <Button key={s} variant={s === 'this' ? 'default' : 'outline'} onClick={() => onChoose(s)}>
                {SCOPE_LABELS[s]}
              </Button>
            ))}
            <A.Cancel asChild>
              <Button variant="ghost">No mover</Button>
            </A.Cancel>
          </div>
        </A.Content>
      </A.Portal>
    </A.Root>
  );
}
