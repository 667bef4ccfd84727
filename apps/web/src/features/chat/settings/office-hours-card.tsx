import { useEffect, useState } from 'react';
import { CHAT_AUTO_REPLY_MAX, timeZoneOptions, type ChatOfficeHours } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useConfirmDiscard } from '@/components/ui/confirm-discard';
import { Field } from '@/components/ui/field';
import { Textarea } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Spinner } from '@/components/ui/spinner';
import { Switch } from '@/components/ui/switch';
import { messageOf } from '@/lib/error-message';
import { toast } from '@/lib/toast';
import { useOfficeHours, useSaveOfficeHours } from '../api/chat-api';
import { isDirty, MAX_SLOTS, toBody, toForm, validate, type FormErrors, type OfficeHoursForm } from '../model/office-hours-form';
import { WeeklyRanges } from './weekly-ranges';

/** Settings → Notificaciones: the therapist's chat office hours and the automatic reply outside them (all their workspaces). */
export function OfficeHoursCard() {
  const query = useOfficeHours();
  if (query.isError) return <Alert variant="error">No se pudo cargar tu horario de atención del chat. {messageOf(query.error)}</Alert>;
  if (!query.data) return <Spinner label="Cargando el horario de atención del chat" />;
  return <OfficeHoursEditor saved={query.data} />;
}

function OfficeHoursEditor({ saved }: { saved: ChatOfficeHours }) {
  const save = useSaveOfficeHours();
  const [form, setForm] = useState<OfficeHoursForm>(() => toForm(saved));
  const [errors, setErrors] = useState<FormErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const dirty = isDirty(form, saved);
  const discard = useConfirmDiscard(dirty);
  const count = form.days.reduce((n, d) => n + d.length, 0);

  // Saved elsewhere (another tab): follow it when nothing is being typed here.
  useEffect(() => {
    if (!dirty) setForm(toForm(saved));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the saved value changes
  }, [saved]);

  const change = (next: OfficeHoursForm) => {
    setForm(next);
    if (submitted) setErrors(validate(next));
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    setFormError(null);
    const found = validate(form);
    setErrors(found);
    const first = Object.keys(found)[0];
    if (first) {
      document.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus();
      return;
    }
    try {
      const result = await save.mutateAsync(toBody(form));
      setForm(toForm(result));
      setSubmitted(false);
      discard.release();
      toast.success('Horario de atención guardado');
    } catch (error) {
      // The form checks what the server does; what is left (network, session) goes above the form.
      setFormError(`No se ha guardado el horario. ${messageOf(error)}`);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-labelledby="office-hours-title">
      <Card>
        <CardHeader>
          <CardTitle id="office-hours-title">Horario de atención del chat</CardTitle>
          <CardDescription>
            Fuera de este horario, el paciente que te escriba recibe tu respuesta automática, una vez hasta que leáis sus mensajes. Vale
            para todos tus espacios de trabajo.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          {formError ? <Alert variant="error">{formError}</Alert> : null}
          <label className="flex items-start gap-3 text-sm">
            <Switch
              checked={form.enabled}
              onCheckedChange={(enabled) => change({ ...form, enabled })}
              aria-describedby="office-hours-switch-hint"
              className="mt-0.5"
            />
            <span className="grid gap-0.5">
              <span className="font-medium">Responder automáticamente fuera de mi horario</span>
              <span id="office-hours-switch-hint" className="text-[0.8125rem] text-muted-foreground">
                {form.enabled
                  ? 'Activado: los mensajes fuera de horario reciben la respuesta.'
                  : 'Desactivado: no se envía ninguna respuesta automática.'}
              </span>
            </span>
          </label>
          <Field label="Zona horaria" error={errors.timeZone} className="sm:max-w-xs">
            <NativeSelect
              data-field="timeZone"
              options={timeZoneOptions(form.timeZone)}
              value={form.timeZone}
              onChange={(e) => change({ ...form, timeZone: e.target.value })}
            />
          </Field>
          <fieldset className="grid gap-2">
            <legend className="mb-2 text-sm font-medium">Horario semanal</legend>
            <WeeklyRanges days={form.days} errors={errors} onChange={(days) => change({ ...form, days })} full={count >= MAX_SLOTS} />
            {errors.slots ? (
              <p role="alert" className="text-[0.8125rem] font-medium text-destructive">
                {errors.slots}
              </p>
            ) : null}
            {form.enabled && count === 0 ? (
              <p className="text-[0.8125rem] text-muted-foreground">
                Sin franjas, todos los mensajes se consideran fuera de horario y reciben la respuesta.
              </p>
            ) : null}
          </fieldset>
          <Field
            label="Respuesta automática"
            error={errors.autoReply}
            hint={`${form.autoReply.trim().length.toLocaleString('es-ES')} de ${CHAT_AUTO_REPLY_MAX.toLocaleString('es-ES')} caracteres. Se envía en tu nombre, marcada como automática.`}
          >
            <Textarea
              data-field="autoReply"
              value={form.autoReply}
              onChange={(e) => change({ ...form, autoReply: e.target.value })}
              rows={4}
            />
          </Field>
          <div className="flex flex-wrap justify-end gap-2">
            {dirty ? (
              <Button
                type="button"
                variant="outline"
                onClick={() =>
                  discard.confirm(() => {
                    setForm(toForm(saved));
                    setErrors({});
                    setSubmitted(false);
                  })
                }
              >
                Descartar cambios
              </Button>
            ) : null}
            <Button type="submit" disabled={!dirty} loading={save.isPending}>
              Aplicar horario
            </Button>
          </div>
        </CardContent>
      </Card>
      {discard.dialog}
    </form>
  );
}
