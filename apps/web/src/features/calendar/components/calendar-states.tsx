import type { UseQueryResult } from '@tanstack/react-query';
import { RotateCw } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { messageOf } from '@/lib/error-message';
import type { ViewName } from '../utils/view-state';

/** Above the grid: a failed load with «Reintentar», or a hint when the visible days have no sessions. */
export function CalendarStates({
  sessions,
  count,
  view,
  canCreate,
}: {
  sessions: UseQueryResult<unknown>;
  count: number;
  view: ViewName;
  canCreate: boolean;
}) {
  if (sessions.isError)
    return (
      <Alert variant="error" className="flex flex-wrap items-center justify-between gap-3">
        <span>No se pudieron cargar las sesiones. {messageOf(sessions.error)}</span>
        <Button variant="outline" size="sm" onClick={() => void sessions.refetch()}>
          <RotateCw aria-hidden /> Reintentar
        </Button>
      </Alert>
    );
  if (sessions.isSuccess && !sessions.isPlaceholderData && count === 0 && view !== 'agenda')
    return (
      <p className="rounded-lg border border-dashed px-4 py-3 text-sm text-muted-foreground" role="status">
        No hay sesiones en estas fechas.{canCreate ? ' Selecciona un hueco en el calendario (o pulsa «Nueva sesión») para crear una.' : ''}
      </p>
    );
  return null;
}
