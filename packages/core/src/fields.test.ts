import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  INT4_MAX,
  birthdateField,
  commissionSchema,
  createPatientBody,
  createWorkspaceBody,
  dayField,
  historyEntryBody,
  inviteMemberBody,
  instantSchema,
  isIsoInstant,
  isoDaySchema,
  optionalDayField,
  optionalText,
  patientListQuery,
  requiredText,
  roleBody,
  textField,
  treatmentFields,
  updateDocumentBody,
  updateProfileBody,
  billingInfo,
  patientBillingInfo,
  deviceInfo,
  documentTagsQuery,
} from './index';

const NUL = '\u0000';
const IMPOSSIBLE_DAYS = ['2024-02-30', '2023-02-29', '2024-13-01', '0000-01-01', '2024-00-10', '2024-04-31', '999-01-01', '2024-1-01'];
const firstMessage = (r: z.ZodSafeParseResult<unknown>) => (r.success ? undefined : r.error.issues[0]?.message);

describe('textField: the one request string', () => {
  it('refuses a NUL anywhere, naming the field in Spanish', () => {
    for (const s of [NUL, `Ana${NUL}`, `${NUL}Ana`, `A${NUL}na`]) {
      expect(firstMessage(textField('nombre').safeParse(s))).toBe('Nombre contiene caracteres no permitidos');
    }
    expect(textField('nombre').safeParse('Ana María ñ 😀').success).toBe(true);
  });
  it('reports only the NUL, not also the rules after it', () => {
    const r = requiredText('nombre', 3).safeParse(`Anabel${NUL}`);
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.message)).toEqual(['Nombre contiene caracteres no permitidos']);
  });
  it('keeps the required, length and clearing rules', () => {
    expect(firstMessage(requiredText('nombre', 5).safeParse('   '))).toBe('El campo nombre es obligatorio');
    expect(firstMessage(requiredText('nombre', 5).safeParse(undefined))).toBe('El campo nombre es obligatorio');
    expect(firstMessage(requiredText('nombre', 5).safeParse('123456'))).toBe('No puede tener más de 5 caracteres');
    expect(requiredText('nombre', 5).parse('  Ana ')).toBe('Ana');
    expect(optionalText('Apellidos', 5).parse('')).toBeNull();
    expect(firstMessage(optionalText('Apellidos', 5).safeParse(NUL))).toBe('Apellidos contiene caracteres no permitidos');
  });

  it.each([
    ['patient first name', createPatientBody, { firstName: `Ana${NUL}` }],
    ['patient last name', createPatientBody, { firstName: 'Ana', lastName: NUL }],
    ['patient billing', createPatientBody, { firstName: 'Ana', billingInfo: { fullName: NUL } }],
    ['patient billing city', patientBillingInfo, { city: `Madrid${NUL}` }],
    ['patient tax id', patientBillingInfo, { taxId: `12345678Z${NUL}` }],
    ['medication', treatmentFields, { medication: NUL }],
    ['insurance policy', treatmentFields, { insurancePolicy: NUL }],
    ['workspace name', createWorkspaceBody, { name: `Clínica${NUL}`, template: 'clinic' }],
    ['workspace billing', billingInfo, { footer: NUL }],
    ['role name', roleBody, { name: NUL, permissions: [{ action: 'read', subject: 'patients' }] }],
    ['biography', updateProfileBody, { biography: NUL }],
    ['profile name', updateProfileBody, { firstName: `Lu${NUL}` }],
    ['history title', historyEntryBody, { title: NUL, date: '2024-02-29' }],
    ['history body', historyEntryBody, { title: 'Sesión', date: '2024-02-29', body: `<p>${NUL}</p>` }],
    ['document name', updateDocumentBody, { name: `informe${NUL}.pdf` }],
    ['document tag', updateDocumentBody, { tags: [`a${NUL}`] }],
    ['device info', deviceInfo, { deviceModel: NUL }],
    ['patient search', patientListQuery, { q: NUL }],
    ['tag search', documentTagsQuery, { q: NUL }],
  ] as const)('%s with a NUL is refused', (_, schema, value) => {
    expect(firstMessage((schema as z.ZodType).safeParse(value))).toMatch(/contiene caracteres no permitidos$/);
  });
});

describe('days: one calendar check', () => {
  it.each(IMPOSSIBLE_DAYS)('refuses %s everywhere a day is accepted', (day) => {
    expect(isoDaySchema.safeParse(day).success).toBe(false);
    expect(firstMessage(dayField('fecha').safeParse(day))).toBe('Fecha inválida');
    expect(firstMessage(optionalDayField().safeParse(day))).toBe('Fecha inválida');
    expect(firstMessage(historyEntryBody.safeParse({ title: 'Sesión', date: day }))).toBe('Fecha inválida');
    expect(firstMessage(createPatientBody.safeParse({ firstName: 'Ana', birthdate: day }))).toBe('Fecha inválida');
    expect(firstMessage(updateProfileBody.safeParse({ birthdate: day }))).toBe('Fecha inválida');
    expect(firstMessage(treatmentFields.safeParse({ startDate: day }))).toBe('Fecha inválida');
    expect(firstMessage(treatmentFields.safeParse({ endDate: day }))).toBe('Fecha inválida');
  });
  it('accepts a real leap day and clears with an empty string', () => {
    expect(dayField('fecha').parse('2024-02-29')).toBe('2024-02-29');
    expect(historyEntryBody.parse({ title: 'Sesión', date: '2024-02-29' }).date).toBe('2024-02-29');
    expect(createPatientBody.parse({ firstName: 'Ana', birthdate: '2000-02-29' }).birthdate).toBe('2000-02-29');
    expect(treatmentFields.parse({ startDate: '2024-02-29', endDate: '' })).toMatchObject({ startDate: '2024-02-29', endDate: null });
    expect(optionalDayField().parse(null)).toBeNull();
  });
  it('keeps a missing required day Spanish', () => {
    expect(firstMessage(dayField('fecha').safeParse(undefined))).toBe('El campo fecha es obligatorio');
  });
  it('bounds a birthdate to 1900 … today', () => {
    expect(birthdateField().safeParse('1899-12-31').success).toBe(false);
    expect(birthdateField().safeParse('2999-01-01').success).toBe(false);
    expect(birthdateField().parse('1900-01-01')).toBe('1900-01-01');
  });
});

describe('instantSchema: the before cursors', () => {
  it.each([
    '0000-01-01T00:00:00Z',
    '0999-12-31T23:59:59Z',
    '2024-02-30T10:00:00Z',
    '2023-02-29T10:00:00Z',
    '2024-13-01T00:00:00Z',
    '2024-01-01T24:00:00Z',
    '2024-01-01',
    'yesterday',
    `2024-01-01T00:00:00Z${NUL}`,
    '',
  ])('refuses %j', (s) => {
    expect(isIsoInstant(s)).toBe(false);
    expect(firstMessage(instantSchema.safeParse(s))).toBe('Fecha y hora inválidas');
  });
  it.each([
    '2024-02-29T10:00:00Z',
    '2026-03-01T10:00:00.123Z',
    '2026-03-01T10:00:00+01:00',
    '9999-12-31T23:59:59Z',
    '1000-01-01T00:00:00Z',
  ])('accepts %s', (s) => {
    expect(instantSchema.parse(s)).toBe(s);
  });
});

describe('numbers bounded by their columns', () => {
  it('a commission fits an int4 column', () => {
    expect(commissionSchema.parse({ type: 'fixed', value: INT4_MAX })).toEqual({ type: 'fixed', value: 2_147_483_647 });
    for (const value of [INT4_MAX + 1, 2 ** 53 - 1]) {
      expect(firstMessage(commissionSchema.safeParse({ type: 'fixed', value }))).toBe('No puede ser mayor de 2147483647');
    }
    expect(commissionSchema.safeParse({ type: 'fixed', value: 1e300 }).success).toBe(false); // not a safe integer
    expect(
      firstMessage(
        inviteMemberBody.safeParse({
          email: 'a@b.es',
          roleIds: ['7d0c1f0e-0000-4000-8000-000000000000'],
          commission: { type: 'fixed', value: 2147483648 },
        }),
      ),
    ).toBe('No puede ser mayor de 2147483647');
    expect(firstMessage(commissionSchema.safeParse({ type: 'percentage', value: 10_001 }))).toBe('No puede ser mayor de 100 %');
    expect(firstMessage(commissionSchema.safeParse({ type: 'fixed', value: -1 }))).toBe('Comisión inválido');
  });
});
