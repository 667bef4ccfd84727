import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { optionalText } from '@divan/core';
import { nullsAsAbsent } from './absent-nulls';

describe('a null where a body field is optional is the field left out', () => {
  const line = z.object({ description: z.string(), vatRate: z.number().optional() });
  const body = z.object({
    name: z.string(),
    taxId: z.string().trim().optional(),
    footer: optionalText('Pie', 10),
    kind: z.enum(['a', 'b']).default('a'),
    buyer: z.object({ taxId: z.string().optional(), email: z.email().nullable().optional() }).nullable().optional(),
    lines: z.array(line).optional(),
  });

  it('drops it where the field cannot be null, keeps it where it can (clear) or where it is required, at any depth', () => {
    const input = {
      name: null,
      taxId: null,
      footer: null,
      kind: null,
      buyer: { taxId: null, email: null },
      lines: [{ description: 'x', vatRate: null }],
    };
    expect(nullsAsAbsent(body, input)).toEqual({ name: null, footer: null, buyer: { email: null }, lines: [{ description: 'x' }] });
    expect(body.safeParse({ ...(nullsAsAbsent(body, { ...input, name: 'Ana' }) as object) }).data).toEqual({
      name: 'Ana',
      footer: null,
      kind: 'a',
      buyer: { email: null },
      lines: [{ description: 'x' }],
    });
  });

  it('leaves anything but objects and arrays alone', () => {
    expect(nullsAsAbsent(body, null)).toBeNull();
    expect(nullsAsAbsent(body, 'texto')).toBe('texto');
    expect(nullsAsAbsent(z.string(), { a: null })).toEqual({ a: null });
  });
});
