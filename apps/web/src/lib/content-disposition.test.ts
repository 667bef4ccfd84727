import { describe, expect, it } from 'vitest';
import { filenameFromDisposition } from './content-disposition';

describe('download file names', () => {
  it('prefers the exact UTF-8 name over the ASCII fallback', () => {
    expect(
      filenameFromDisposition(`attachment; filename="Informe de evolucion.pdf"; filename*=UTF-8''Informe%20de%20evoluci%C3%B3n.pdf`),
    ).toBe('Informe de evolución.pdf');
    expect(filenameFromDisposition('attachment; filename="paciente.json"')).toBe('paciente.json');
    expect(filenameFromDisposition(null)).toBeNull();
  });
});
