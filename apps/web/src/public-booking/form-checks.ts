/**
 * The booking form's own checks, before anything is sent: the contract's (createBookingHoldBody) limits
 * and its letters-only and e-mail rules, taken from core's rules (no Zod on the public page). The server
 * checks again.
 */
import { BOOKING_FORM_MAX, BOOKING_MESSAGE_MAX, isEmailAddress, isPersonName, personNameMessage } from '@divan/core/rules';

export type BookingForm = {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  message: string;
  privacyAccepted: boolean;
  /** The honeypot: a person never sees it. */
  website: string;
};

export const emptyForm: BookingForm = {
  firstName: '',
  lastName: '',
  email: '',
  phone: '',
  message: '',
  privacyAccepted: false,
  website: '',
};

export type FormErrors = Partial<Record<keyof BookingForm, string>>;

/** Digits with the usual separators and one + at most; 6 to 15 digits (the server then reads it with core's normalizePhone). */
const PHONE = /^[^+]*\+?[^+]*$/;
const PHONE_CHARS = /^[\d\s()+.-]+$/;

export function checkForm(f: BookingForm): FormErrors {
  const e: FormErrors = {};
  const required = (key: 'firstName' | 'lastName' | 'email' | 'phone', label: string, max: number) => {
    const v = f[key].trim();
    if (!v) e[key] = `Escribe tu ${label}`;
    else if (v.length > max) e[key] = `No puede tener más de ${max} caracteres`;
  };
  required('firstName', 'nombre', BOOKING_FORM_MAX.firstName);
  required('lastName', 'apellido', BOOKING_FORM_MAX.lastName);
  for (const key of ['firstName', 'lastName'] as const) if (!e[key] && !isPersonName(f[key].trim())) e[key] = personNameMessage();
  required('email', 'email', BOOKING_FORM_MAX.email);
  required('phone', 'teléfono', BOOKING_FORM_MAX.phone);
  if (!e.email && !isEmailAddress(f.email.trim())) e.email = 'Escribe un email válido, como nombre@ejemplo.com';
  const digits = f.phone.replace(/\D/g, '').length;
  if (!e.phone && (!PHONE_CHARS.test(f.phone.trim()) || !PHONE.test(f.phone) || digits < 6 || digits > 15))
    e.phone = 'Escribe un teléfono válido, como 600 123 456';
  if (f.message.trim().length > BOOKING_MESSAGE_MAX) e.message = `No puede tener más de ${BOOKING_MESSAGE_MAX} caracteres`;
  if (!f.privacyAccepted) e.privacyAccepted = 'Debes aceptar el tratamiento de tus datos para reservar';
  return e;
}

/** The body of `POST …/holds`: trimmed, the message only when written. */
export function holdBody(f: BookingForm, startsAt: string, timeZone: string | undefined) {
  const message = f.message.trim();
  return {
    startsAt,
    firstName: f.firstName.trim(),
    lastName: f.lastName.trim(),
    email: f.email.trim(),
    phone: f.phone.trim(),
    ...(message ? { message } : {}),
    privacyAccepted: true as const,
    ...(timeZone ? { timeZone } : {}),
    website: f.website,
  };
}

export { cleanCode } from '../public-kit/code-field';
