import { useEffect, useState, type ReactNode } from 'react';
import { REMINDER_OPTIONS, sessionMessages, type NotificationSettingsBody } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { messageOf } from '@/lib/error-message';
import { toast } from '@/lib/toast';
import { usePageTitle } from '@/lib/use-page-title';
import { useCurrentWorkspace } from '@/stores/workspaces-store';
import { useNotificationSettings, useSaveNotificationSettings } from '../api/notifications-api';
import { describeOffsets, toggleOffset } from '../utils/reminder-choice';

function Choice({
  checked,
  disabled,
  onChange,
  children,
  hint,
}: {
  checked: boolean;
  disabled?: boolean;
  onChange: () => void;
  children: ReactNode;
  hint?: ReactNode;
}) {
  return (
    <label
      className={cn(
        'flex cursor-pointer items-start gap-2.5 rounded-lg border bg-card px-3 py-2.5 text-sm shadow-xs has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ring',
        checked ? 'border-primary bg-accent text-accent-foreground' : 'hover:bg-muted',
        disabled && 'cursor-not-allowed opacity-60 hover:bg-card',
      )}
    >
      <input
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={onChange}
        className="mt-0.5 size-4 accent-[var(--color-primary)]"
      />
      <span className="grid gap-0.5 leading-tight">
        <span className="font-medium">{children}</span>
        {hint ? <span className="text-xs text-muted-foreground">{hint}</span> : null}
      </span>
    </label>
  );
}

export function NotificationSettingsRoute() {
  usePageTitle('Notificaciones');
  const workspace = useCurrentWorkspace();
  const { data, isPending, error } = useNotificationSettings(workspace.id);
  const save = useSaveNotificationSettings(workspace.id);
  const [form, setForm] = useState<NotificationSettingsBody | null>(null);
  useEffect(() => {
    if (data)
      setForm({
        reminderOffsets: data.reminderOffsets,
        notifyPatientCanceled: data.notifyPatientCanceled,
        notifyPatientBooked: data.notifyPatientBooked,
      });
  }, [data]);

  if (error) return <Alert variant="error">{messageOf(error)}</Alert>;
  if (isPending || !data || !form) return <Spinner label="Cargando notificaciones" />;

  const max = data.maxReminders;
  const full = form.reminderOffsets.length >= max;
  const changed =
    JSON.stringify(form.reminderOffsets) !== JSON.stringify(data.reminderOffsets) ||
    form.notifyPatientCanceled !== data.notifyPatientCanceled ||
    form.notifyPatientBooked !== data.notifyPatientBooked;
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    save.mutate(form, { onSuccess: () => toast.success('Notificaciones guardadas'), onError: (err) => toast.error(messageOf(err)) });
  };

  return (
    <form onSubmit={submit} className="grid gap-6" aria-label="Notificaciones">
      <Card>
        <CardHeader>
          <CardTitle id="reminders-title">Recordatorios a tus pacientes</CardTitle>
          <CardDescription>
            Un email al paciente antes de cada sesión, con el día, la hora, el lugar o el enlace de la videollamada. Es lo que reciben las
            sesiones nuevas en «{workspace.name}» si no eliges otros al crearlas.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3">
          <fieldset className="grid gap-2 sm:grid-cols-3" aria-labelledby="reminders-title" aria-describedby="reminders-cap">
            {REMINDER_OPTIONS.map((o) => {
              const checked = form.reminderOffsets.includes(o.minutes);
              return (
                <Choice
                  key={o.minutes}
                  checked={checked}
                  disabled={!checked && full}
                  onChange={() => {
                    const next = toggleOffset(form.reminderOffsets, o.minutes, max);
                    if (next) setForm({ ...form, reminderOffsets: next });
                  }}
                >
                  {o.label}
                </Choice>
              );
            })}
          </fieldset>
          <p id="reminders-cap" className="text-[0.8125rem] text-muted-foreground">
            {describeOffsets(form.reminderOffsets)}. {sessionMessages.remindersCap(max)}.
          </p>
          <p className="text-[0.8125rem] text-muted-foreground">
            Solo a pacientes con email. Si una sesión se mueve, el recordatorio se envía para la nueva hora; si se cancela, no se envía.
          </p>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Avisos para ti</CardTitle>
          <CardDescription>Emails a tu dirección sobre tu agenda en «{workspace.name}».</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3">
          <div className="grid gap-2 sm:grid-cols-2">
            <Choice
              checked={form.notifyPatientBooked}
              onChange={() => setForm({ ...form, notifyPatientBooked: !form.notifyPatientBooked })}
            >
              Cuando un paciente reserve o cambie una sesión
            </Choice>
            <Choice
              checked={form.notifyPatientCanceled}
              onChange={() => setForm({ ...form, notifyPatientCanceled: !form.notifyPatientCanceled })}
            >
              Cuando un paciente cancele una sesión
            </Choice>
          </div>
          <p className="text-sm text-muted-foreground">
            Cuando lo hace por su cuenta, desde tu página de reservas o desde su app de Diván. Tu calendario se actualiza al momento en
            cualquier caso.
          </p>
        </CardContent>
      </Card>
      <div className="flex justify-end">
        <Button type="submit" disabled={!changed} loading={save.isPending}>
          Guardar
        </Button>
      </div>
    </form>
  );
}

export { NotificationSettingsRoute as Component };
