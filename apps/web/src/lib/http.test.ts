import { describe, expect, it } from 'vitest';
import { genericMessage } from '@divan/core';
import { toApiError } from './http';

describe('toApiError', () => {
  it("keeps the server's Spanish message, which can be more precise than the catalogue's", () => {
    const e = toApiError(400, {
      code: 'invalid_import_file',
      message: 'El archivo tiene más de 5.000 filas. Divídelo en varios archivos.',
    });
    expect(e.code).toBe('invalid_import_file');
    expect(e.message).toBe('El archivo tiene más de 5.000 filas. Divídelo en varios archivos.');
  });

  it('without a message, says a generic Spanish sentence for the status (the catalogue stays out of the first bundle)', () => {
    expect(toApiError(404, { code: 'patient_not_found' })).toMatchObject({
      code: 'patient_not_found',
      message: genericMessage('unexpected_error'),
    });
    expect(toApiError(429, { code: 'too_many_requests', message: '  ' }).message).toBe(genericMessage('too_many_requests'));
  });

  it('keeps the offending fields, and names unknown failures in Spanish', () => {
    const e = toApiError(400, {
      code: 'invalid_argument',
      message: 'Datos no válidos',
      fields: [{ path: 'email', message: 'Email inválido' }],
    });
    expect(e.fields).toEqual([{ path: 'email', message: 'Email inválido' }]);
    expect(toApiError(502, '<html>bad gateway</html>').code).toBe('unexpected_error');
    expect(toApiError(426, {}).code).toBe('outdated_client');
  });
});
