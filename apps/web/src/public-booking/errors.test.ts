import { describe, expect, it } from 'vitest';
import { fieldMessages, manageLoadFailure, messageOf, placeOf, toFailure } from './errors';

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
    expect(messageOf({ code: 'public_service_patient_session_limit_reached', message: 'Mensaje del servidor.' })).toBe(
      'Mensaje del servidor.',
    );
    expect(messageOf({ code: 'network_error', message: '' })).toBe('Error de red. Comprueba tu conexión.');
    expect(messageOf({ code: 'service_unavailable', message: '' })).toBe('Servicio no disponible temporalmente.');
    expect(messageOf({ code: 'whatever', message: '' })).toBe('Error inesperado.');
  });

  it('normalises any error body', () => {
    expect(toFailure(0, null)).toMatchObject({ code: 'network_error' });
    expect(toFailure(429, '<html>')).toMatchObject({ code: 'too_many_requests', message: '' });
    expect(toFailure(502, undefined)).toMatchObject({ code: 'unexpected_error' });
    const f = toFailure(400, {
      code: 'invalid_argument',
      message: 'Datos',
      fields: [{ path: 'email', message: 'Email inválido' }, { path: 'email', message: 'otro' }, null],
    });
    expect(fieldMessages(f.fields)).toEqual({ email: 'Email inválido' });
    expect(fieldMessages([{ path: 'body.phone', message: 'x' }])).toEqual({ phone: 'x' });
  });

  it('says a manage link that opens no booking is not valid, with where to go and no «Reintentar»', () => {
    // A garbage token answered 400 with the token's length rule; an unknown one 404.
    for (const failure of [
      toFailure(400, { code: 'invalid_argument', message: 'token debe tener 43 caracteres' }),
      toFailure(404, { code: 'public_booking_not_found', message: 'No encontrada' }),
    ]) {
      const shown = manageLoadFailure(failure);
      expect(shown).toMatchObject({ title: 'Este enlace no es válido o ha caducado', retry: false });
      expect(shown.message).toContain('email de tu reserva');
      expect(shown.message).not.toContain('caracteres');
    }
    expect(manageLoadFailure(toFailure(0, null))).toEqual({
      title: 'No se ha podido cargar tu reserva',
      message: 'Error de red. Comprueba tu conexión.',
      retry: true,
    });
    expect(manageLoadFailure(toFailure(503, null))).toMatchObject({ retry: true });
  });
});
