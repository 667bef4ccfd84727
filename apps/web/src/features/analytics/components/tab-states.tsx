import { Spinner } from '@/components/ui/spinner';
import { LoadError } from '@/components/ui/states';

/** A tab's first load and its failure (later periods keep the previous figures on screen while they load). */
export function TabStates({
  q,
  what,
}: {
  q: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown };
  what: string;
}) {
  if (q.isPending)
    return (
      <div className="grid min-h-64 place-items-center">
        <Spinner label={`Cargando ${what}…`} />
      </div>
    );
  if (q.isError) return <LoadError error={q.error} onRetry={() => void q.refetch()} what={what} />;
  return null;
}
