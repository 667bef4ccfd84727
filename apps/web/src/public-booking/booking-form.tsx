import { useEffect, useRef, type FormEvent, type ReactNode } from 'react';
import { BOOKING_MESSAGE_MAX } from '@divan/core/rules';
import type { CreateBookingHoldBody } from '@divan/core';
import { checkForm, emptyForm, holdBody, type BookingForm as Values, type FormErrors } from './form-checks';
import { dayLabel, zoneCity } from '../public-kit/format';
import type { Slot } from '../public-kit/slots';
import { Alert, Button, FocusHeading, cx } from './ui';

type Props = {
  /** Null: nothing typed yet. */
  values: Values | null;
  onChange: (values: Values) => void;
  errors: FormErrors;
  onErrors: (errors: FormErrors) => void;
  /** A failure that is no field's (not accepting new patients, too many requests…). */
  notice: string | null;
  submitting: boolean;
  /** Called with the hold's body once the form's own checks pass. */
  onSubmit: (body: CreateBookingHoldBody) => void;
  visitorZone: string | undefined;
  /** The chosen hour, shown above the form with the way back to change it. */
  slot: Slot;
  therapistZone: string;
  onChangeSlot: () => void;
  workspaceName: string;
};

const input =
  'block min-h-11 w-full rounded-md border border-input bg-card px-3 py-2 text-base shadow-xs outline-none transition-colors placeholder:text-muted-foreground/70 focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/30 aria-[invalid=true]:border-destructive';

/** Who books: name, surnames, email, phone, a message, the privacy box; and a field only robots fill. */
export function BookingForm({
  values: typed,
  onChange,
  errors,
  onErrors,
  notice,
  submitting,
  onSubmit,
  visitorZone,
  slot,
  therapistZone,
  onChangeSlot,
  workspaceName,
}: Props) {
  const values = typed ?? emptyForm;
  const form = useRef<HTMLFormElement>(null);
  const set = <K extends keyof Values>(key: K, value: Values[K]) => onChange({ ...values, [key]: value });

  // After a failed submit, the first field with an error takes focus.
  const errorKey = Object.keys(errors).join();
  useEffect(() => {
    if (errorKey) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errorKey]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = checkForm(values);
    onErrors(found);
    if (!Object.keys(found).length) onSubmit(holdBody(values, slot.startsAt, visitorZone));
  };
  const field = (key: 'firstName' | 'lastName' | 'email' | 'phone', label: string, type: string, autoComplete: string) => (
    <Field id={key} label={label} error={errors[key]}>
      <input
        id={key}
        name={key}
        type={type}
        autoComplete={autoComplete}
        inputMode={key === 'phone' ? 'tel' : key === 'email' ? 'email' : undefined}
        className={input}
        value={values[key]}
        onChange={(e) => set(key, e.target.value)}
        aria-invalid={!!errors[key]}
        aria-describedby={errors[key] ? `${key}-error` : undefined}
        aria-required
      />
    </Field>
  );

  return (
    <section aria-labelledby="form-title" className="grid gap-5">
      <FocusHeading level={2} id="form-title">
        Tus datos
      </FocusHeading>
      <ChosenSlot slot={slot} therapistZone={therapistZone} onChange={onChangeSlot} />
      {notice ? <Alert testId="form-notice">{notice}</Alert> : null}
      <form ref={form} noValidate onSubmit={submit} className="grid gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          {field('firstName', 'Nombre', 'text', 'given-name')}
          {field('lastName', 'Apellidos', 'text', 'family-name')}
          {field('email', 'Email', 'email', 'email')}
          {field('phone', 'Teléfono', 'tel', 'tel')}
        </div>
        <Field
          id="message"
          label="Mensaje (opcional)"
          error={errors.message}
          hint="Si quieres, cuéntale a tu terapeuta el motivo de la consulta."
        >
          <textarea
            id="message"
            name="message"
            rows={3}
            maxLength={BOOKING_MESSAGE_MAX}
            className={cx(input, 'min-h-24 resize-y')}
            value={values.message}
            onChange={(e) => set('message', e.target.value)}
            aria-invalid={!!errors.message}
            aria-describedby={errors.message ? 'message-error' : 'message-hint'}
          />
        </Field>
        <div aria-hidden="true" className="absolute -left-[9999px] top-auto size-px overflow-hidden">
          <label htmlFor="website">Web (déjalo vacío)</label>
          <input
            id="website"
            name="website"
            type="text"
            tabIndex={-1}
            autoComplete="off"
            value={values.website}
            onChange={(e) => set('website', e.target.value)}
          />
        </div>
        <div className="grid gap-1.5">
          <label className="flex cursor-pointer items-start gap-3 text-[0.9375rem] leading-snug">
            <input
              id="privacyAccepted"
              type="checkbox"
              className="mt-0.5 size-5 shrink-0 cursor-pointer accent-primary"
              checked={values.privacyAccepted}
              onChange={(e) => set('privacyAccepted', e.target.checked)}
              aria-invalid={!!errors.privacyAccepted}
              aria-describedby={errors.privacyAccepted ? 'privacyAccepted-error' : undefined}
            />
            <span>
              Acepto que {workspaceName} trate los datos que escribo aquí solo para gestionar esta cita y contactar conmigo sobre ella.
              Puedo pedirle en cualquier momento verlos, corregirlos o borrarlos.
            </span>
          </label>
          {errors.privacyAccepted ? <FieldError id="privacyAccepted-error">{errors.privacyAccepted}</FieldError> : null}
        </div>
        <div>
          <Button type="submit" loading={submitting} className="w-full sm:w-auto">
            Continuar
          </Button>
        </div>
        <p className="text-[0.8125rem] text-muted-foreground">Te enviaremos un código por email para confirmar la reserva.</p>
      </form>
    </section>
  );
}

function Field({ id, label, error, hint, children }: { id: string; label: string; error?: string; hint?: string; children: ReactNode }) {
  return (
    <div className="grid content-start gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {children}
      {error ? (
        <FieldError id={`${id}-error`}>{error}</FieldError>
      ) : hint ? (
        <p id={`${id}-hint`} className="text-[0.8125rem] text-muted-foreground">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

function FieldError({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="text-[0.8125rem] font-medium text-destructive">
      {children}
    </p>
  );
}

/** The hour chosen, above the form, with the way back to the calendar. */
function ChosenSlot({ slot, therapistZone, onChange }: { slot: Slot; therapistZone: string; onChange: () => void }) {
  return (
    <div
      className="flex flex-wrap items-center justify-between gap-3 rounded-xl border bg-accent px-4 py-3 text-accent-foreground"
      data-testid="chosen-slot"
    >
      <p className="text-[0.9375rem] first-letter:uppercase">
        <span className="font-semibold">{dayLabel(slot.visitor.day)}</span> a las <span className="font-semibold">{slot.visitor.from}</span>
        {slot.sameLocalTime ? null : <span className="text-[0.8125rem]">{` (${slot.therapist.from} en ${zoneCity(therapistZone)})`}</span>}
      </p>
      <Button variant="outline" className="min-h-9 text-sm" onClick={onChange}>
        Cambiar
      </Button>
    </div>
  );
}
