import { useMemo, useRef, useState, type FormEvent } from 'react';
import { AlertTriangle, Repeat } from 'lucide-react';
import { centsToEuros, errorMessage, isHHmm, MODALITY, VIDEO_CONFERENCE, type SessionConflict } from '@divan/core';
import { useGoogleCalendarStatus } from '@/lib/google-calendar';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useConfirmDiscard } from '@/components/ui/confirm-discard';
import { Dialog, DialogContent, DialogFooter, DialogHeader } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { isApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { useAuthStore } from '@/stores/auth-store';
import { useCreateSession, useLocations, usePatientBrief, useUpdateSession } from '../api/sessions-api';
import type { CalendarSession, GridSession, Scope } from '../api/types';
import { describeConflicts, overlapping } from '../utils/conflicts';
import { addToTime, formatDayShort, minutesBetween } from '../utils/dates';
import {
  blankForm,
  checkForm,
  createBodyOf,
  formOfSession,
  REPEAT_LABELS,
  therapistOptions,
  type Repeat as RepeatKind,
  type SessionFormValues,
  updateBodyOf,
  withTimes,
} from '../utils/session-form';
import { DayInput, TimeInput } from './day-time-inputs';
import { NativeSelect as Select } from '@/components/ui/native-select';
import { PatientPicker, type PickedPatient } from '@/components/patient-picker';
import { RemindersField } from './reminders-field';
import { ScopeField } from './scope-field';

export type FormMode =
  { kind: 'create'; init: Partial<SessionFormValues>; patient: PickedPatient | null } | { kind: 'edit'; session: CalendarSession };

type Props = {
  workspaceId: string;
  mode: FormMode;
  therapists: { id: string; name: string }[];
  /** Whether the member may book for others (else the session is theirs). */
  chooseTherapist: boolean;
  maxReminders: number;
  onScreen: GridSession[];
  onClose: () => void;
  onSaved: (session: CalendarSession) => void;
};

const KNOWN = [
  'patientId',
  'therapistId',
  'day',
  'from',
  'to',
  'modality',
  'videoConference',
  'locationId',
  'price',
  'reminders',
  'until',
  'count',
] as const;
type Known = (typeof KNOWN)[number];
const FIELD_BY_CODE: Partial<Record<string, Known>> = {
  patient_not_active: 'patientId',
  location_not_found: 'locationId',
  session_reminders_limit: 'reminders',
};

/** Where a server field path lands in this form ("body.recurrence.end.until" → until). */
function fieldOfPath(path: string): Known | null {
  const p = path.replace(/^body\./, '');
  if (p.startsWith('recurrence')) return p.includes('until') ? 'until' : 'count';
  return (KNOWN as readonly string[]).includes(p) ? (p as Known) : null;
}

/** "Nueva sesión" and "Editar sesión": nothing typed is lost on a refusal, and closing with changes asks first. */
export function SessionFormDialog({
  workspaceId: wid,
  mode,
  therapists,
  chooseTherapist,
  maxReminders,
  onScreen,
  onClose,
  onSaved,
}: Props) {
  const initial = useMemo(() => (mode.kind === 'edit' ? formOfSession(mode.session) : blankForm(mode.init)), [mode]);
  const [values, setValues] = useState<SessionFormValues>(initial);
  const [patient, setPatient] = useState<PickedPatient | null>(mode.kind === 'edit' ? mode.session.patient : mode.patient);
  const [errors, setErrors] = useState<Partial<Record<Known, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [scope, setScope] = useState<Scope>('this');
  const [busy, setBusy] = useState(false);
  const refs = useRef<Partial<Record<Known, HTMLElement | null>>>({});
  const create = useCreateSession(wid);
  const update = useUpdateSession(wid);
  const locations = useLocations(wid);
  const me = useAuthStore((s) => s.userId) ?? '';
  const brief = usePatientBrief(wid, mode.kind === 'create' ? (patient?.id ?? null) : null);
  const series = mode.kind === 'edit' ? mode.session.series : null;
  // Opened with ?patientId=: the name arrives with the patient's record.
  const shownPatient =
    patient && !patient.name && brief.data
      ? { id: patient.id, name: [brief.data.firstName, brief.data.lastName].filter(Boolean).join(' ') }
      : patient;

  const dirty = JSON.stringify(values) !== JSON.stringify(initial);
  const discard = useConfirmDiscard(dirty && !busy);
  const close = () => discard.confirm(onClose);

  const set = <K extends keyof SessionFormValues>(key: K, value: SessionFormValues[K]) => {
    setValues((v) => {
      const next = { ...v, [key]: value };
      // Moving the start keeps the length (a 50-minute session stays 50 minutes).
      if (key === 'from' && isHHmm(v.from) && isHHmm(v.to) && typeof value === 'string' && isHHmm(value)) {
        const length = minutesBetween(v.from, v.to);
        if (length > 0) next.to = addToTime(value, length);
      }
      return next;
    });
    setErrors((e) => ({ ...e, [key]: undefined }));
  };

  // No therapist chosen: a new session is the caller's own (as the server books it).
  const therapistId = values.therapistId || (mode.kind === 'edit' ? mode.session.therapist.id : me);
  const overlaps = overlapping(
    {
      id: mode.kind === 'edit' ? mode.session.id : undefined,
      therapistId,
      locationId: values.locationId,
      day: values.day,
      from: values.from,
      to: values.to,
    },
    onScreen,
  );
  const standardPrice = brief.data?.treatment?.sessionPrice;
  // Google Meet is offered for the member's own online sessions once their Google Calendar is connected (the
  // link is made there); a session that already has it keeps showing the choice.
  const google = useGoogleCalendarStatus(wid, values.modality === 'online' && therapistId === me);
  const offerMeet =
    values.modality === 'online' && ((therapistId === me && !!google.data?.connected) || values.videoConference === 'google_meet');

  const place = (field: Known, message: string, focus: boolean) => {
    setErrors((e) => ({ ...e, [field]: message }));
    if (focus) refs.current[field]?.focus();
  };

  const conflictToast = (conflicts: SessionConflict[]) => {
    if (conflicts.length) toast.info('Atención: hay un solapamiento', { description: describeConflicts(conflicts), duration: 8000 });
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError(null);
    const typed = withTimes(values);
    setValues(typed);
    const problems = checkForm(typed, mode.kind);
    if (problems.length) {
      setErrors(Object.fromEntries(problems.map((p) => [p.field, p.message])));
      refs.current[problems[0]!.field as Known]?.focus();
      return;
    }
    setBusy(true);
    try {
      if (mode.kind === 'create') {
        const res = await create.mutateAsync(createBodyOf(typed));
        toast.success(res.series ? `Serie creada: ${res.series.count} sesiones` : 'Sesión creada', {
          description: `${shownPatient?.name ?? ''} · ${formatDayShort(typed.day)} ${typed.from}`,
        });
        conflictToast(res.conflicts);
        discard.release();
        onSaved(res.session);
      } else {
        const body = updateBodyOf(typed, initial);
        if (!Object.keys(body).length) {
          onClose();
          return;
        }
        const res = await update.mutateAsync({ id: mode.session.id, body: series ? { ...body, scope } : body });
        toast.success(res.updated && res.updated > 1 ? `${res.updated} sesiones actualizadas` : 'Sesión guardada');
        conflictToast(res.conflicts);
        discard.release();
        onSaved(res.session);
      }
    } catch (error) {
      if (!isApiError(error)) {
        setFormError(errorMessage('unexpected_error'));
        return;
      }
      const byCode = FIELD_BY_CODE[error.code];
      if (byCode) return place(byCode, error.message, true);
      let placed = false;
      for (const f of error.fields) {
        const field = fieldOfPath(f.path);
        if (field) {
          place(field, f.message, !placed);
          placed = true;
        }
      }
      if (!placed && error.code !== 'outdated_client') setFormError(error.message);
    } finally {
      setBusy(false);
    }
  };

  const reg = (name: Known) => (el: HTMLElement | null) => {
    refs.current[name] = el;
  };
  const locationOptions = (locations.data ?? []).map((l) => ({ value: l.id, label: l.name }));

  return (
    <>
      <Dialog open onOpenChange={(open) => (open ? undefined : close())}>
        <DialogContent
          className="max-w-xl"
          onEscapeKeyDown={(e) => {
            e.preventDefault();
            close();
          }}
        >
          <DialogHeader
            title={mode.kind === 'create' ? 'Nueva sesión' : 'Editar sesión'}
            description={mode.kind === 'edit' ? `${mode.session.patient.name}${series ? ` · ${series.description}` : ''}` : undefined}
          />
          <form onSubmit={submit} noValidate className="grid gap-4" aria-label={mode.kind === 'create' ? 'Nueva sesión' : 'Editar sesión'}>
            {formError ? <Alert variant="error">{formError}</Alert> : null}

            {mode.kind === 'create' ? (
              <Field label="Paciente" error={errors.patientId}>
                <PatientPicker
                  workspaceId={wid}
                  value={shownPatient}
                  inputRef={reg('patientId')}
                  onChange={(p) => {
                    setPatient(p);
                    set('patientId', p?.id ?? '');
                  }}
                />
              </Field>
            ) : null}

            {chooseTherapist && therapists.length > 1 ? (
              <Field label="Terapeuta" error={errors.therapistId}>
                <Select
                  ref={reg('therapistId')}
                  value={therapistId}
                  onChange={(e) => set('therapistId', e.target.value)}
                  options={therapistOptions(therapists, me)}
                  placeholder={therapists.some((t) => t.id === therapistId) ? undefined : 'Elige terapeuta'}
                />
              </Field>
            ) : null}

            <div className="grid grid-cols-2 gap-3 sm:grid-cols-[1fr_6rem_6rem]">
              <Field label="Día" error={errors.day} className="col-span-2 sm:col-span-1">
                <DayInput ref={reg('day')} value={values.day} onChange={(d) => set('day', d)} />
              </Field>
              <Field label="De" error={errors.from}>
                <TimeInput ref={reg('from')} value={values.from} onChange={(t) => set('from', t)} />
              </Field>
              <Field label="A" error={errors.to}>
                <TimeInput ref={reg('to')} value={values.to} onChange={(t) => set('to', t)} />
              </Field>
            </div>

            {overlaps.length ? (
              <div
                role="status"
                className="flex gap-2 rounded-lg border border-warning-fg/25 bg-warning-bg px-3 py-2 text-sm text-warning-fg"
              >
                <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
                <span>
                  Se solapa con{' '}
                  {overlaps
                    .map(
                      (o) =>
                        `${o.session.patient.name} (${o.session.from}–${o.session.to}${o.kind === 'location' ? `, ${o.session.location?.name}` : ''})`,
                    )
                    .join(', ')}
                  . Puedes guardarla igualmente.
                </span>
              </div>
            ) : null}

            <div className="grid gap-3 sm:grid-cols-2">
              <Field label="Modalidad" error={errors.modality}>
                <Select
                  ref={reg('modality')}
                  value={values.modality}
                  onChange={(e) => set('modality', e.target.value as SessionFormValues['modality'])}
                  options={MODALITY.values.map((m) => ({ value: m, label: MODALITY.labels[m] }))}
                  placeholder={mode.kind === 'create' ? 'La del paciente' : undefined}
                />
              </Field>
              {values.modality !== 'online' ? (
                <Field
                  label="Ubicación"
                  error={errors.locationId}
                  hint={locations.data && !locations.data.length ? 'Añade salas y direcciones en Ajustes del espacio.' : undefined}
                >
                  <Select
                    ref={reg('locationId')}
                    value={values.locationId}
                    onChange={(e) => set('locationId', e.target.value)}
                    options={locationOptions}
                    placeholder="Sin ubicación"
                  />
                </Field>
              ) : offerMeet ? (
                <Field
                  label="Videollamada"
                  error={errors.videoConference}
                  hint={
                    values.videoConference === 'google_meet'
                      ? 'El enlace de Meet se crea en tu Google Calendar y llega al paciente en su recordatorio.'
                      : 'El paciente recibe el enlace en su recordatorio.'
                  }
                >
                  <Select
                    ref={reg('videoConference')}
                    value={values.videoConference || 'own'}
                    onChange={(e) => set('videoConference', e.target.value as SessionFormValues['videoConference'])}
                    options={VIDEO_CONFERENCE.values.map((v) => ({ value: v, label: VIDEO_CONFERENCE.labels[v] }))}
                  />
                </Field>
              ) : (
                <p className="self-end pb-2 text-sm text-muted-foreground">
                  Con videollamada de Diván: el paciente recibe el enlace en su recordatorio.
                </p>
              )}
            </div>

            <Field
              className="sm:max-w-56"
              label="Precio (€)"
              error={errors.price}
              hint={
                mode.kind === 'create' && !values.price
                  ? typeof standardPrice === 'number'
                    ? `Vacío: el precio del paciente (${centsToEuros(standardPrice)} €)`
                    : 'Vacío: el precio estándar del paciente'
                  : undefined
              }
            >
              <Input
                ref={reg('price')}
                inputMode="decimal"
                autoComplete="off"
                placeholder={typeof standardPrice === 'number' ? centsToEuros(standardPrice) : 'p. ej. 60'}
                value={values.price}
                onChange={(e) => set('price', e.target.value)}
              />
            </Field>

            <RemindersField
              value={values.reminders}
              max={maxReminders}
              error={errors.reminders}
              onChange={(r) => set('reminders', r)}
              inputRef={reg('reminders')}
            />

            {mode.kind === 'create' ? (
              <fieldset className="grid gap-3">
                <legend className="mb-1.5 flex items-center gap-1.5 text-sm font-medium">
                  <Repeat className="size-4 text-muted-foreground" aria-hidden /> Repetir
                </legend>
                <Select
                  aria-label="Repetir"
                  value={values.repeat}
                  onChange={(e) => set('repeat', e.target.value as RepeatKind)}
                  options={(Object.keys(REPEAT_LABELS) as RepeatKind[]).map((r) => ({ value: r, label: REPEAT_LABELS[r] }))}
                  className="sm:w-64"
                />
                {values.repeat !== 'none' ? (
                  <div className="grid gap-2 rounded-lg border bg-muted/40 p-3">
                    <label className="flex flex-wrap items-center gap-2 text-sm">
                      <input
                        type="radio"
                        name="end"
                        checked={values.endKind === 'count'}
                        onChange={() => set('endKind', 'count')}
                        className="size-4 accent-[var(--primary)]"
                      />
                      Termina después de
                      <span className="w-16">
                        <Input
                          ref={reg('count')}
                          aria-label="Número de sesiones"
                          inputMode="numeric"
                          className="h-8"
                          value={values.count}
                          onFocus={() => set('endKind', 'count')}
                          onChange={(e) => set('count', e.target.value)}
                          aria-invalid={!!errors.count || undefined}
                        />
                      </span>
                      sesiones
                    </label>
                    <label className="flex flex-wrap items-center gap-2 text-sm">
                      <input
                        type="radio"
                        name="end"
                        checked={values.endKind === 'until'}
                        onChange={() => set('endKind', 'until')}
                        className="size-4 accent-[var(--primary)]"
                      />
                      Termina el día
                      <span className="w-32">
                        <DayInput
                          ref={reg('until')}
                          aria-label="Último día de la serie (DD/MM/AAAA)"
                          className="h-8"
                          value={values.until}
                          onFocus={() => set('endKind', 'until')}
                          onChange={(d) => set('until', d)}
                          aria-invalid={!!errors.until || undefined}
                        />
                      </span>
                    </label>
                    {errors.count || errors.until ? (
                      <p role="alert" className="text-[0.8125rem] font-medium text-destructive">
                        {errors.count ?? errors.until}
                      </p>
                    ) : null}
                  </div>
                ) : null}
              </fieldset>
            ) : null}

            {series ? <ScopeField name="edit-scope" value={scope} onChange={setScope} /> : null}

            <DialogFooter className="pt-1">
              <Button type="button" variant="outline" onClick={close}>
                Cancelar
              </Button>
              <Button type="submit" loading={busy}>
                {mode.kind === 'create' ? (values.repeat === 'none' ? 'Crear sesión' : 'Crear serie') : 'Guardar cambios'}
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
      {discard.dialog}
    </>
  );
}
