import { useState } from 'react';
import { CalendarOff, Plus, Trash2 } from 'lucide-react';
import type { AvailabilityOverrideRecord } from '@divan/core';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { Spinner } from '@/components/ui/spinner';
import { EmptyState, LoadError } from '@/components/ui/states';
import { isoDateToDmy } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useAvailabilityOverrides, useDeleteOverride, useTeam } from '../api/booking-api';
import { useBookingScope } from '../api/use-booking-scope';
import { BlockDatesDialog } from './block-dates-dialog';
import { HolidaySuggestions } from './holiday-suggestions';

const when = (o: AvailabilityOverrideRecord) => (o.allDay ? 'Todo el día' : `${o.from}–${o.to}`);

/** Upcoming blocked days of one therapist (the member's own, or a chosen one's for Recepción), with «Bloquear fechas» and removal. */
export function BlockedDays({ today }: { today: string }) {
  const { wid, userId, canBlock, canUnblock, blocksAll } = useBookingScope();
  const team = useTeam(wid, blocksAll);
  const [therapistId, setTherapistId] = useState(userId);
  const overrides = useAvailabilityOverrides(wid, therapistId);
  const remove = useDeleteOverride(wid);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<AvailabilityOverrideRecord | null>(null);

  const addButton = canBlock ? (
    <Button variant="outline" onClick={() => setAdding(true)}>
      <Plus aria-hidden /> Bloquear fechas
    </Button>
  ) : null;

  let body;
  if (overrides.isPending) body = <Spinner label="Cargando fechas bloqueadas…" />;
  else if (overrides.isError)
    body = <LoadError error={overrides.error} onRetry={() => void overrides.refetch()} what="las fechas bloqueadas" />;
  else if (overrides.data.length === 0)
    body = (
      <div className="rounded-xl border bg-card">
        <EmptyState
          icon={<CalendarOff />}
          title="No hay fechas bloqueadas"
          text="Bloquea vacaciones, festivos o unas horas de un día para que nadie reserve entonces."
        />
      </div>
    );
  else
    body = (
      <ul className="divide-y rounded-xl border bg-card" aria-label="Fechas bloqueadas">
        {overrides.data.map((o) => (
          <li key={o.id} className="flex items-center justify-between gap-3 px-4 py-2.5">
            <span className="text-sm">
              <span className="font-medium tabular-nums">{isoDateToDmy(o.day)}</span> ·{' '}
              <span className="text-muted-foreground">{when(o)}</span>
            </span>
            {canUnblock ? (
              <Button
                variant="ghost"
                size="icon"
                className="text-destructive"
                aria-label={`Desbloquear el ${isoDateToDmy(o.day)}`}
                onClick={() => setRemoving(o)}
              >
                <Trash2 aria-hidden />
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
    );

  return (
    <section className="grid gap-3" aria-labelledby="blocked-heading">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="blocked-heading" className="text-lg font-semibold">
          Fechas bloqueadas
        </h2>
        {addButton}
      </div>
      {blocksAll && team.data && team.data.length > 1 ? (
        <div className="flex flex-wrap items-center gap-2">
          <Label htmlFor="blocked-therapist">Terapeuta</Label>
          <NativeSelect
            id="blocked-therapist"
            className="w-auto"
            options={team.data.map((m) => ({ value: m.id, label: m.name }))}
            value={therapistId}
            onChange={(e) => setTherapistId(e.target.value)}
          />
        </div>
      ) : null}
      {body}
      {canBlock && overrides.data ? (
        <HolidaySuggestions
          wid={wid}
          therapistId={therapistId === userId ? null : therapistId}
          today={today}
          blocked={new Set(overrides.data.filter((o) => o.allDay).map((o) => o.day))}
        />
      ) : null}
      <BlockDatesDialog
        wid={wid}
        therapistId={therapistId === userId ? null : therapistId}
        today={today}
        open={adding}
        onOpenChange={setAdding}
      />
      <ConfirmDialog
        open={!!removing}
        onOpenChange={(o) => (o ? undefined : setRemoving(null))}
        title="¿Desbloquear la fecha?"
        description={
          removing ? `El ${isoDateToDmy(removing.day)} (${when(removing).toLowerCase()}) volverá a ofrecerse en tu página de reserva.` : ''
        }
        confirmLabel="Desbloquear"
        onConfirm={async () => {
          if (!removing) return;
          await remove.mutateAsync(removing.id);
          toast.success('Fecha desbloqueada');
        }}
      />
    </section>
  );
}
