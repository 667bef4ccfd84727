import { useState } from 'react';
import { CalendarClock, Pause, Pencil, Play, Plus, Trash2 } from 'lucide-react';
import { BOOKING_SERVICE_STATUS, MODALITY, canOn, formatCents, type BookingService } from '@divan/core';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { PageSpinner } from '@/components/ui/spinner';
import { EmptyState, LoadError } from '@/components/ui/states';
import { useAbility } from '@/lib/ability';
import { messageOf } from '@/lib/error-message';
import { toast } from '@/lib/toast';
import { useBookingServices, useDeleteBookingService, useSaveBookingService } from '../api/booking-api';
import { useBookingScope } from '../api/use-booking-scope';
import { ServiceFormDialog } from './service-form-dialog';
import { scheduleSummary } from './service-form-model';

/** The services of the therapist (or of every therapist, named), with «Nuevo servicio», edit, pause and delete. */
export function ServicesList() {
  const { wid, userId, readsAll, canCreate } = useBookingScope();
  const ability = useAbility();
  const services = useBookingServices(wid);
  const save = useSaveBookingService(wid);
  const remove = useDeleteBookingService(wid);
  const [editing, setEditing] = useState<{ service: BookingService | null } | null>(null);
  const [deleting, setDeleting] = useState<BookingService | null>(null);

  // The therapist's name only when the list holds someone else's services (Recepción, a clinic's owner).
  const showTherapist = readsAll && !!services.data?.some((s) => s.therapist.id !== userId);

  const toggle = async (s: BookingService) => {
    const status = s.status === 'active' ? 'paused' : 'active';
    try {
      await save.mutateAsync({ id: s.id, body: { status } });
      toast.success(status === 'paused' ? 'Servicio en pausa: no se muestra en tu página de reserva' : 'Servicio activo');
    } catch (error) {
      toast.error(messageOf(error));
    }
  };

  const newButton = canCreate ? (
    <Button onClick={() => setEditing({ service: null })}>
      <Plus aria-hidden /> Nuevo servicio
    </Button>
  ) : null;

  let body;
  if (services.isPending) body = <PageSpinner />;
  else if (services.isError) body = <LoadError error={services.error} onRetry={() => void services.refetch()} what="los servicios" />;
  else if (services.data.length === 0)
    body = (
      <div className="rounded-xl border bg-card">
        <EmptyState
          icon={<CalendarClock />}
          title="Aún no hay servicios"
          text="Crea un servicio con su horario para que tus pacientes reserven desde tu página pública."
        >
          {newButton}
        </EmptyState>
      </div>
    );
  else
    body = (
      <ul className="grid gap-3" aria-label="Servicios">
        {services.data.map((s) => {
          const owner = { ownerId: s.therapist.id };
          const canUpdate = canOn(ability, 'update', 'public_services', owner);
          const canDelete = canOn(ability, 'delete', 'public_services', owner);
          return (
            <li key={s.id} className="grid gap-3 rounded-xl border bg-card p-4 shadow-xs sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center">
              <div className="grid min-w-0 gap-1">
                <div className="flex flex-wrap items-center gap-2">
                  <h3 className="min-w-0 break-words font-semibold">{s.title}</h3>
                  <Badge variant={s.status === 'active' ? 'accent' : 'warning'}>{BOOKING_SERVICE_STATUS.labels[s.status]}</Badge>
                </div>
                {showTherapist ? <p className="text-sm text-muted-foreground">{s.therapist.name}</p> : null}
                <p className="text-sm">
                  {s.durationMinutes} min · {formatCents(s.priceCents)} · {MODALITY.labels[s.modality]}
                </p>
                <p className="text-sm text-muted-foreground">{scheduleSummary(s.schedule)}</p>
              </div>
              {canUpdate || canDelete ? (
                <div className="flex flex-wrap gap-1 sm:justify-end">
                  {canUpdate ? (
                    <>
                      <Button variant="outline" size="sm" onClick={() => setEditing({ service: s })} aria-label={`Editar ${s.title}`}>
                        <Pencil aria-hidden /> Editar
                      </Button>
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => void toggle(s)}
                        aria-label={`${s.status === 'active' ? 'Pausar' : 'Activar'} ${s.title}`}
                      >
                        {s.status === 'active' ? <Pause aria-hidden /> : <Play aria-hidden />}{' '}
                        {s.status === 'active' ? 'Pausar' : 'Activar'}
                      </Button>
                    </>
                  ) : null}
                  {canDelete ? (
                    <Button
                      variant="ghost"
                      size="sm"
                      className="text-destructive"
                      onClick={() => setDeleting(s)}
                      aria-label={`Eliminar ${s.title}`}
                    >
                      <Trash2 aria-hidden /> Eliminar
                    </Button>
                  ) : null}
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
    );

  return (
    <section className="grid gap-3" aria-labelledby="services-heading">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="services-heading" className="text-lg font-semibold">
          Servicios
        </h2>
        {services.data?.length ? newButton : null}
      </div>
      {body}
      <ServiceFormDialog
        wid={wid}
        service={editing?.service ?? null}
        open={!!editing}
        onOpenChange={(o) => (o ? undefined : setEditing(null))}
      />
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(o) => (o ? undefined : setDeleting(null))}
        title="¿Eliminar el servicio?"
        description={
          deleting ? `«${deleting.title}» dejará de mostrarse en tu página de reserva. Las sesiones ya reservadas no cambian.` : ''
        }
        confirmLabel="Eliminar servicio"
        onConfirm={async () => {
          if (!deleting) return;
          await remove.mutateAsync(deleting.id);
          toast.success('Servicio eliminado');
        }}
      />
    </section>
  );
}
