import type { ReactNode } from 'react';
import { RotateCw } from 'lucide-react';
import { messageOf } from '@/lib/error-message';
import { Alert } from './alert';
import { Button } from './button';
import { Spinner } from './spinner';

type Query = { data: unknown; isError: boolean; error: unknown; refetch: () => unknown };

/**
 * A card's list before it shows: failed with nothing to show (what could not load, the reason and
 * «Reintentar»), loading, or empty (`empty`, a sentence; null when there is something); else `children`.
 */
export function ListStates({
  query,
  failed,
  loading,
  empty,
  children,
}: {
  query: Query;
  /** «No se pudieron cargar …». */
  failed: string;
  /** «Cargando …». */
  loading: string;
  empty: string | null;
  children: ReactNode;
}) {
  if (query.isError && !query.data)
    return (
      <Alert variant="error" className="flex flex-wrap items-center justify-between gap-3">
        <span>
          {failed} {messageOf(query.error)}
        </span>
        <Button variant="outline" size="sm" onClick={() => void query.refetch()}>
          <RotateCw aria-hidden /> Reintentar
        </Button>
      </Alert>
    );
  if (!query.data)
    return (
      <div className="flex items-center gap-2 py-4 text-sm text-muted-foreground" aria-busy="true">
        <Spinner /> {loading}
      </div>
    );
  if (empty) return <p className="py-2 text-sm text-muted-foreground">{empty}</p>;
  return <>{children}</>;
}
