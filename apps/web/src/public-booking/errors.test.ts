import { describe, expect, it } from 'vitest';
import { fieldMessages, messageOf, placeOf, toFailure } from './errors';

describe('booking errors', () => {
  it('places each §8 code at its step', () => {
    expect(placeOf('public_service_slot_not_available')).toBe('slots');
    expect(placeOf('public_service_not_accepting_new_patients')).toBe('form');
    expect(placeOf('public_service_patient_session_limit_reached')).toBe('form');
    expect(placeOf('public_service_patient_data_missing')).toBe('form');
    expect(placeOf('invalid_code')).toBe('code');
    expect(placeOf('challenge_expired')).toBe('new-code');
    expect(placeOf('max_attempts')).toBe('new-code');
    expect(placeOf('public_booking_change_closed')).toBe('closed');
    expect(placeOf('too_many_requests')).toBe('here');
  });

  it('keeps the server message, the generic one without it', () => {
    expect(messageOf({ code: 'public_service_patient_session_limit_reached', message: 'Mensaje del servidor.' })).toBe('Mensaje del servidor.');
    expect(messageOf({ code: 'network_error', message: '' })).toBe('Error de red. Comprueba tu conexión.');
    expect(messageOf({ code: 'service_unavailable', message: '' })).toBe('Servicio no disponible temporalmente.');
    expect(messageOf({ code: 'whatever', message: '' })).toBe('Error inesperado.');
  });

  it('normalises any error body', () => {
    expect(toFailure(0, null)).toMatchObject({ code: 'network_error' });
    expect(toFailure(429, '<html>')).toMatchObject({ code: 'too_many_requests', message: '' });
    expect(toFailure(502, undefined)).toMatchObject({ code: 'unexpected_error' });
    const f = toFailure(400, { code: 'invalid_argument', message: 'Datos', fields: [{ path: 'email', message: 'Email inválido' }, { path: 'email', message: 'otro' }, null] });
    expect(fieldMessages(f.fields)).toEqual({ email: 'Email inválido' });
    expect(fieldMessages([{ path: 'body.phone', message: 'x' }])).toEqual({ phone: 'x' });
  });
});
