import { useState } from 'react';
import { CalendarClock, Pause, Play, Plus, Square } from 'lucide-react';
import { MEASURES, MEASURE_KEYS, type MeasureKey } from '@divan/core/rules';
import type { MeasureCadence, MeasureSchedule } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Input } from '@/components/ui/input';
import { Modal } from '@/components/ui/modal';
import { NativeSelect } from '@/components/ui/native-select';
import { Spinner } from '@/components/ui/spinner';
import { LoadError } from '@/components/ui/states';
import { messageOf } from '@/lib/error-message';
import { formatDate } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useCreateSchedule, useMeasureSchedules, useStopSchedule, useUpdateSchedule } from '../api/measures-api';

const CADENCES: { value: MeasureCadence; label: string }[] = [
  { value: 'each_session', label: 'Antes de cada sesión' },
  { value: 'every_other_session', label: 'Una sesión sí y otra no' },
  { value: 'every_n_weeks', label: 'Cada N semanas' },
];
const STATUS: Record<MeasureSchedule['status'], { label: string; variant: 'accent' | 'warning' | 'outline' }> = {
  active: { label: 'Activa', variant: 'accent' },
  paused: { label: 'En pausa', variant: 'warning' },
  stopped: { label: 'Detenida', variant: 'outline' },
};
const cadenceText = (s: Pick<MeasureSchedule, 'cadence' | 'everyWeeks'>) =>
  s.cadence === 'every_n_weeks'
    ? s.everyWeeks === 1
      ? 'Cada semana, antes de la sesión'
      : `Cada ${s.everyWeeks} semanas, antes de la sesión`
    : CADENCES.find((c) => c.value === s.cadence)!.label;
const measureOptions = MEASURE_KEYS.map((k) => ({ value: k, label: MEASURES[k].shortName }));

type Props = { wid: string; patient: { id: string; name: string; hasEmail: boolean }; canCreate: boolean; canUpdate: boolean };

/** «Envíos programados»: a measure sent by itself 24 h before the patient's sessions; create, edit, pause, stop. */
export function MeasureSchedules({ wid, patient, canCreate, canUpdate }: Props) {
  const list = useMeasureSchedules(wid, patient.id);
  const update = useUpdateSchedule(wid, patient.id);
  const stop = useStopSchedule(wid, patient.id);
  const [editing, setEditing] = useState<MeasureSchedule | 'new' | null>(null);
  const [stopping, setStopping] = useState<MeasureSchedule | null>(null);
  const open = (list.data ?? []).filter((s) => s.status !== 'stopped');
  const stopped = (list.data ?? []).filter((s) => s.status === 'stopped');

  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-3">
        <CardTitle>Envíos programados</CardTitle>
        {canCreate ? (
          <Button size="sm" variant="outline" onClick={() => setEditing('new')}>
            <Plus aria-hidden /> Programar envío
          </Button>
        ) : null}
      </CardHeader>
      <CardContent className="grid gap-3">
        <p className="text-sm text-muted-foreground">
          El cuestionario se envía solo por email 24 horas antes de la sesión, con su enlace personal. Las sesiones canceladas no envían
          nada.
        </p>
        {list.isError ? (
          <LoadError error={list.error} onRetry={() => void list.refetch()} what="los envíos programados" />
        ) : !list.data ? (
          <Spinner label="Cargando los envíos programados" className="justify-center py-4" />
        ) : open.length === 0 ? (
          <p className="text-sm">Sin envíos programados.</p>
        ) : (
          <ul className="grid divide-y rounded-lg border" data-testid="measure-schedules">
            {open.map((s) => (
              <li key={s.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
                <span className="min-w-24 font-medium">{MEASURES[s.measure].shortName}</span>
                <Badge variant={STATUS[s.status].variant}>{STATUS[s.status].label}</Badge>
                <span className="text-sm">{cadenceText(s)}</span>
                <span className="text-sm text-muted-foreground">
                  {s.lastSentAt ? `Último envío: ${formatDate(s.lastSentAt)}` : 'Aún sin envíos'}
                </span>
                {canUpdate ? (
                  <span className="ml-auto flex flex-wrap gap-2">
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => setEditing(s)}
                      aria-label={`Editar la programación de ${MEASURES[s.measure].shortName}`}
                    >
                      Editar
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      loading={update.isPending && update.variables?.id === s.id}
                      onClick={() =>
                        update.mutate(
                          { id: s.id, status: s.status === 'active' ? 'paused' : 'active' },
                          {
                            onSuccess: (r) => toast.success(r.status === 'paused' ? 'Envíos en pausa' : 'Envíos reanudados'),
                            onError: (e) => toast.error(messageOf(e)),
                          },
                        )
                      }
                    >
                      {s.status === 'active' ? (
                        <>
                          <Pause aria-hidden /> Pausar
                        </>
                      ) : (
                        <>
                          <Play aria-hidden /> Reanudar
                        </>
                      )}
                    </Button>
                    <Button size="sm" variant="ghost" onClick={() => setStopping(s)}>
                      <Square aria-hidden /> Detener
                    </Button>
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        {stopped.length ? (
          <p className="text-xs text-muted-foreground">
            Detenidas: {stopped.map((s) => `${MEASURES[s.measure].shortName} (${cadenceText(s).toLowerCase()})`).join(' · ')}
          </p>
        ) : null}
      </CardContent>
      {editing ? (
        <ScheduleDialog wid={wid} patient={patient} schedule={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
      <ConfirmDialog
        open={!!stopping}
        onOpenChange={(o) => !o && setStopping(null)}
        title="Detener los envíos"
        description={
          stopping
            ? `No se enviará más ${MEASURES[stopping.measure].shortName} antes de las sesiones de ${patient.name}. Los cuestionarios ya enviados siguen válidos.`
            : ''
        }
        confirmLabel="Detener"
        destructive
        onConfirm={async () => {
          await stop.mutateAsync(stopping!.id);
          toast.success('Envíos detenidos');
          setStopping(null);
        }}
      />
    </Card>
  );
}

function ScheduleDialog({
  wid,
  patient,
  schedule,
  onClose,
}: {
  wid: string;
  patient: Props['patient'];
  schedule: MeasureSchedule | null;
  onClose: () => void;
}) {
  const [measure, setMeasure] = useState<MeasureKey>(schedule?.measure ?? 'phq9');
  const [cadence, setCadence] = useState<MeasureCadence>(schedule?.cadence ?? 'each_session');
  const [weeks, setWeeks] = useState(String(schedule?.everyWeeks ?? 4));
  const create = useCreateSchedule(wid, patient.id);
  const update = useUpdateSchedule(wid, patient.id);
  const write = schedule ? update : create;
  const n = Number(weeks);
  const weeksInvalid = cadence === 'every_n_weeks' && !(Number.isInteger(n) && n >= 1 && n <= 26);
  const submit = () => {
    if (weeksInvalid) return;
    const everyWeeks = cadence === 'every_n_weeks' ? n : null;
    const done = { onSuccess: () => (toast.success(schedule ? 'Programación guardada' : 'Envío programado'), onClose()) };
    if (schedule) update.mutate({ id: schedule.id, cadence, everyWeeks }, done);
    else create.mutate({ measure, cadence, everyWeeks }, done);
  };
  return (
    <Modal
      open
      onOpenChange={(o) => !o && onClose()}
      title={schedule ? 'Editar envío programado' : 'Programar envío'}
      description={`${patient.name} recibirá el cuestionario por email 24 horas antes de la sesión.`}
      size="sm"
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Cancelar
          </Button>
          <Button loading={write.isPending} disabled={!patient.hasEmail} onClick={submit}>
            <CalendarClock aria-hidden /> {schedule ? 'Guardar' : 'Programar'}
          </Button>
        </>
      }
    >
      <form
        className="grid gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        {!patient.hasEmail ? <Alert variant="info">El paciente no tiene email. Añádelo en su ficha para programar envíos.</Alert> : null}
        <label className="grid gap-1.5 text-sm font-medium">
          Cuestionario
          <NativeSelect
            value={measure}
            options={measureOptions}
            onChange={(e) => setMeasure(e.target.value as MeasureKey)}
            disabled={!!schedule}
            name="schedule-measure"
          />
        </label>
        <label className="grid gap-1.5 text-sm font-medium">
          Frecuencia
          <NativeSelect value={cadence} options={CADENCES} onChange={(e) => setCadence(e.target.value as MeasureCadence)} name="cadence" />
        </label>
        {cadence === 'every_n_weeks' ? (
          <label className="grid gap-1.5 text-sm font-medium">
            Cada cuántas semanas
            <Input
              type="number"
              inputMode="numeric"
              min={1}
              max={26}
              name="everyWeeks"
              value={weeks}
              onChange={(e) => setWeeks(e.target.value)}
              aria-invalid={weeksInvalid || undefined}
              aria-describedby={weeksInvalid ? 'every-weeks-error' : undefined}
            />
            {weeksInvalid ? (
              <span id="every-weeks-error" className="text-sm font-normal text-destructive">
                Indica un número de semanas entre 1 y 26.
              </span>
            ) : null}
          </label>
        ) : null}
        {write.isError ? <Alert variant="error">{messageOf(write.error)}</Alert> : null}
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </form>
    </Modal>
  );
}
