/**
 * The companion's pieces: the public bundles' kit (public-kit/ui.tsx) and what only the companion shows —
 * a list's skeleton, an unread count, an empty state.
 */
import type { ReactNode } from 'react';
import { Skeleton } from '../public-kit/ui';

export * from '../public-kit/ui';

/** A list while its data loads: a few card-shaped blocks. */
export function ListSkeleton({ rows = 2 }: { rows?: number }) {
  return (
    <div className="grid gap-3" aria-busy="true" aria-label="Cargando">
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className="h-24 rounded-xl" />
      ))}
    </div>
  );
}

/** Unread messages: a small filled count, read out with its meaning. */
export function CountBadge({ count, testId }: { count: number; testId?: string }) {
  if (count <= 0) return null;
  return (
    <span
      data-testid={testId}
      className="inline-flex min-w-6 items-center justify-center rounded-full bg-primary px-1.5 py-0.5 text-xs font-semibold text-primary-foreground"
    >
      {count > 99 ? '99+' : count}
      <span className="sr-only"> {count === 1 ? 'mensaje sin leer' : 'mensajes sin leer'}</span>
    </span>
  );
}

/** Nothing to show yet: a calm sentence, not an error. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="grid justify-items-center gap-2 rounded-xl border border-dashed bg-card/60 px-6 py-10 text-center">
      <p className="font-medium">{title}</p>
      {children ? <div className="max-w-sm text-[0.9375rem] text-muted-foreground">{children}</div> : null}
    </div>
  );
}
