import { analyticsErrors } from './analytics';
import { authErrors } from './auth';
import { billingErrors } from './billing';
import { bookingErrors } from './booking';
import { chatErrors } from './chat';
import { companionErrors } from './companion';
import { consentErrors } from './consents';
import { googleCalendarErrors } from './google-calendar';
import { httpErrors } from './http';
import { invoiceErrors } from './invoices';
import { learningErrors } from './learning';
import { measureErrors } from './measures';
import { meetErrors } from './meet';
import { patientErrors } from './patients';
import { paymentErrors } from './payments';
import { realtimeErrors } from './realtime';
import { sessionErrors } from './sessions';
import { workspaceErrors } from './workspaces';

/**
 * The error catalogue of spec §8: one snake_case code, its HTTP status and its Spanish message, written
 * by domain in this folder and assembled here (catalogue.test.ts checks that no code is written twice).
 * The server answers `{code, message}`; the web app shows `message` or maps `code` to behaviour.
 */
export const errorCatalogue = {
  ...httpErrors,
  ...authErrors,
  ...workspaceErrors,
  ...patientErrors,
  ...chatErrors,
  ...sessionErrors,
  ...meetErrors,
  ...invoiceErrors,
  ...paymentErrors,
  ...billingErrors,
  ...consentErrors,
  ...bookingErrors,
  ...companionErrors,
  ...realtimeErrors,
  ...analyticsErrors,
  ...learningErrors,
  ...googleCalendarErrors,
  ...measureErrors,
} as const;

export type ErrorCode = keyof typeof errorCatalogue;

export type ApiErrorBody = { code: ErrorCode | (string & {}); message: string; fields?: FieldError[] };
export type FieldError = { path: string; message: string };

export function errorStatus(code: ErrorCode): number {
  return errorCatalogue[code][0];
}

export function errorMessage(code: string): string {
  return (errorCatalogue as Record<string, readonly [number, string]>)[code]?.[1] ?? errorCatalogue.unexpected_error[1];
}

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && code in errorCatalogue;
}

export { fileErrorMessages } from './http';
export { bookingErrorMessages } from './booking';
export { companionErrorMessages } from './companion';
export { consentErrorMessages } from './consents';
export { invoiceErrorMessages } from './invoices';
export { patientErrorMessages } from './patients';
export { sessionErrorMessages } from './sessions';
