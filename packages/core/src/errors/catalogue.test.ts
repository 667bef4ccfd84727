import { describe, expect, it } from 'vitest';
import { analyticsErrors } from './analytics';
import { authErrors } from './auth';
import { billingErrors } from './billing';
import { bookingErrors } from './booking';
import { chatErrors } from './chat';
import { companionErrors } from './companion';
import { consentErrors } from './consents';
import { googleCalendarErrors } from './google-calendar';
import { httpErrors } from './http';
import { errorCatalogue, errorMessage, errorStatus, isErrorCode } from './index';
import { invoiceErrors } from './invoices';
import { learningErrors } from './learning';
import { measureErrors } from './measures';
import { meetErrors } from './meet';
import { patientErrors } from './patients';
import { paymentErrors } from './payments';
import { realtimeErrors } from './realtime';
import { sessionErrors } from './sessions';
import { workspaceErrors } from './workspaces';

const parts = {
  httpErrors,
  authErrors,
  workspaceErrors,
  patientErrors,
  chatErrors,
  sessionErrors,
  meetErrors,
  invoiceErrors,
  paymentErrors,
  billingErrors,
  consentErrors,
  bookingErrors,
  companionErrors,
  realtimeErrors,
  analyticsErrors,
  learningErrors,
  googleCalendarErrors,
  measureErrors,
};

describe('the error catalogue, written by domain', () => {
  it('defines every code in one domain only, and the assembled catalogue holds them all', () => {
    const owners = new Map<string, string[]>();
    for (const [part, codes] of Object.entries(parts))
      for (const code of Object.keys(codes)) owners.set(code, [...(owners.get(code) ?? []), part]);
    expect([...owners].filter(([, where]) => where.length > 1)).toEqual([]);
    expect(Object.keys(errorCatalogue).sort()).toEqual([...owners.keys()].sort());
  });

  it('gives every code a status and a Spanish sentence', () => {
    for (const [code, [status, message]] of Object.entries(errorCatalogue)) {
      expect(code, code).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
      expect(status === 0 || (status >= 400 && status < 600), code).toBe(true);
      expect(message.trim(), code).toBe(message);
      expect(message, code).toMatch(/^[¿¡]?[A-ZÁÉÍÓÚÑ]/);
      expect(message, code).not.toMatch(/\b(the|please|not|invalid|failed|error:)\b/i);
      expect(errorMessage(code), code).toBe(message);
      expect(isErrorCode(code), code).toBe(true);
    }
  });

  it('answers an unknown code with the unexpected error', () => {
    expect(isErrorCode('no_such_code')).toBe(false);
    expect(errorMessage('no_such_code')).toBe(errorMessage('unexpected_error'));
    expect(errorStatus('patient_not_found')).toBe(404);
  });
});
