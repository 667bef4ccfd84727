import { describe, expect, it } from 'vitest';
import { importCommitBody, suggestImportMapping } from './import.contracts';

describe('import mapping', () => {
  it('matches Spanish headers ignoring accents, case and spacing', () => {
    expect(
      suggestImportMapping([
        'NOMBRE',
        'apellidos',
        'Correo electrónico',
        'Móvil',
        'Fecha de  nacimiento',
        'Sexo',
        'NIF',
        'Domicilio',
        'Población',
        'C.P.',
        'País',
        'Motivo de consulta',
        'Tipo de sesión',
      ]),
    ).toEqual({
      firstName: 0,
      lastName: 1,
      email: 2,
      phone: 3,
      birthdate: 4,
      gender: 5,
      taxId: 6,
      line1: 7,
      city: 8,
      zipCode: 9,
      country: 10,
      motive: 11,
      sessionType: 12,
    });
  });

  it('leaves out fields no header names, and uses each column once', () => {
    expect(suggestImportMapping(['Nombre', 'Notas', 'Nombre'])).toEqual({ firstName: 0 });
  });

  it('needs a column for the first name', () => {
    const res = importCommitBody.safeParse({ mapping: { email: 1 } });
    expect(res.success).toBe(false);
    expect(res.error!.issues[0]).toMatchObject({ message: 'Indica qué columna contiene el nombre', path: ['mapping', 'firstName'] });
    expect(importCommitBody.safeParse({ mapping: { firstName: 0, phone: null } }).success).toBe(true);
    expect(importCommitBody.safeParse({ mapping: { firstName: 0, password: 1 } }).success).toBe(false);
  });
});
