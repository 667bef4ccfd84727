import type { ReactNode } from 'react';
import { RotateCw } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { messageOf } from '@/lib/error-message';

/** An empty list or screen: an icon, what is missing, and what to do. */
export function EmptyState({ icon, title, text, children }: { icon: ReactNode; title: string; text?: ReactNode; children?: ReactNode }) {
  return (
    <div className="grid justify-items-center gap-3 px-6 py-14 text-center">
      <span className="grid size-12 place-items-center rounded-full bg-accent text-accent-foreground [&_svg]:size-6">{icon}</span>
      <h2 className="text-base font-semibold">{title}</h2>
      {text ? <p className="max-w-sm text-sm text-muted-foreground">{text}</p> : null}
      {children ? <div className="mt-2 flex flex-wrap justify-center gap-2">{children}</div> : null}
    </div>
  );
}

/** A failed load, with the reason and a way to try again. */
export function LoadError({ error, onRetry, what }: { error: unknown; onRetry: () => void; what: string }) {
  return (
    <Alert variant="error" className="flex flex-wrap items-center justify-between gap-3">
      <span>
        No se pudo cargar {what}. {messageOf(error)}
      </span>
      <Button variant="outline" size="sm" onClick={onRetry}>
        <RotateCw aria-hidden /> Reintentar
      </Button>
    </Alert>
  );
}
