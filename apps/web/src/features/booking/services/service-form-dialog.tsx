import { useMemo, useState } from 'react';
import type { BookingService } from '@divan/core';
import { useConfirmDiscard } from '@/components/ui/confirm-discard';
import { ModalForm } from '@/components/ui/form-dialog';
import { isApiError } from '@/lib/http';
import { messageOf } from '@/lib/error-message';
import { toast } from '@/lib/toast';
import { useSaveBookingService } from '../api/booking-api';
import { ScheduleEditor } from './schedule-editor';
import { ServiceFields } from './service-fields';
import { bodyOf, formKey, formOfService, newServiceForm, problemsOf, type ServiceForm } from './service-form-model';

type Props = { wid: string; service: BookingService | null; open: boolean; onOpenChange: (open: boolean) => void };

/** «Nuevo servicio» or editing one; mounted per opening so each starts from what is saved. */
export function ServiceFormDialog(props: Props) {
  return props.open ? <ServiceFormBody {...props} /> : null;
}

const keyOf = (key: keyof ServiceForm): string =>
  key === 'minNoticeAmount' || key === 'minNoticeUnit'
    ? 'minNotice'
    : key === 'maxNoticeAmount' || key === 'maxNoticeUnit'
      ? 'maxNotice'
      : key;

function ServiceFormBody({ wid, service, onOpenChange }: Props) {
  const initial = useMemo(() => (service ? formOfService(service) : newServiceForm()), [service]);
  const [form, setForm] = useState(initial);
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [tried, setTried] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const save = useSaveBookingService(wid);
  const dirty = JSON.stringify(form) !== JSON.stringify(initial);
  const discard = useConfirmDiscard(dirty);

  const problems = useMemo(() => problemsOf(form), [form]);
  // Core's rules speak at a field once it has been changed (the schedule as soon as a range is), and everywhere after «Guardar».
  const shown = (key: string) => tried || touched.has(key) || (key.startsWith('schedule.') && touched.has('schedule'));
  const errors: Record<string, string | undefined> = { ...serverErrors };
  for (const [key, message] of Object.entries(problems)) if (shown(key)) errors[key] ??= message;

  function set<K extends keyof ServiceForm>(key: K, value: ServiceForm[K]) {
    setForm((f) => ({ ...f, [key]: value }));
    setTouched((t) => new Set(t).add(keyOf(key)));
    setServerErrors({});
  }

  async function submit() {
    setTried(true);
    setFormError(null);
    if (Object.keys(problems).length) return;
    const body = bodyOf(form);
    try {
      await save.mutateAsync({ id: service?.id ?? null, body });
      discard.release();
      toast.success(service ? 'Servicio guardado' : 'Servicio creado');
      onOpenChange(false);
    } catch (error) {
      if (isApiError(error) && error.fields.length) {
        setServerErrors(Object.fromEntries(error.fields.map((f) => [formKey(f.path), f.message])));
        setFormError('Revisa los campos marcados.');
      } else setFormError(messageOf(error));
    }
  }

  const close = () => discard.confirm(() => onOpenChange(false));
  return (
    <>
      <ModalForm
        id="booking-service-form"
        title={service ? 'Editar servicio' : 'Nuevo servicio'}
        description="Lo que tus pacientes pueden reservar en tu página pública."
        size="lg"
        dirty={dirty}
        onClose={close}
        error={formError}
        pending={save.isPending}
        confirmLabel={service ? 'Guardar cambios' : 'Crear servicio'}
        onConfirm={submit}
        className="grid gap-6"
      >
        <ServiceFields form={form} set={set} errors={errors}>
          <ScheduleEditor value={form.schedule} onChange={(v) => set('schedule', v)} errors={errors} />
        </ServiceFields>
      </ModalForm>
      {discard.dialog}
    </>
  );
}
