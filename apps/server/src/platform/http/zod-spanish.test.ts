import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { spanishZodMessage } from './zod-spanish';

const messages = (schema: z.ZodType, input: unknown) =>
  schema.safeParse(input, { error: spanishZodMessage }).error!.issues.map((i) => i.message);

describe('Spanish messages for what Zod says by itself', () => {
  it('names the field and uses the general messages', () => {
    const s = z.object({
      firstName: z.string().max(3),
      id: z.uuid(),
      tags: z.array(z.string()).max(1),
      kind: z.enum(['a', 'b']),
      age: z.number().int().max(10),
    });
    expect(messages(s, { firstName: 'Leocadia', id: 'x', tags: ['a', 'b'], kind: 'c', age: 11 })).toEqual([
      'No puede tener más de 3 caracteres',
      'id inválido',
      'No puede tener más de 1 elementos',
      'Opción inválida',
      'No puede ser mayor de 10',
    ]);
    expect(messages(s, [])).toEqual(['Datos inválidos']);
    expect(messages(z.object({ email: z.email() }), {})).toEqual(['El campo email es obligatorio']);
    expect(messages(z.object({ email: z.email() }), { email: 'no' })).toEqual(['Email inválido']);
  });

  it("keeps a schema's own message", () => {
    expect(messages(z.string().min(2, 'Demasiado corto'), 'a')).toEqual(['Demasiado corto']);
  });
});
