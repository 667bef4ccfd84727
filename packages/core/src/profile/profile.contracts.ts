import { z } from 'zod';
import { msg } from '../messages';

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: msg.maxLength(max) })
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v));

/** Therapist profile of spec §3. */
export const profileResponse = z.object({
  id: z.uuid(),
  firstName: z.string(),
  lastName: z.string().nullable(),
  email: z.string(),
  phone: z.string().nullable(),
  biography: z.string().nullable(),
  birthdate: z.string().nullable(),
  registrationNumber: z.string().nullable(),
  pictureUrl: z.string().nullable(),
  logoUrl: z.string().nullable(),
});
export type Profile = z.infer<typeof profileResponse>;

export const updateProfileBody = z
  .object({
    firstName: z
      .string({ error: msg.required('nombre') })
      .trim()
      .min(1, { error: msg.required('nombre') })
      .max(100, { error: msg.maxLength(100) }),
    lastName: optionalText(150),
    phone: z
      .string()
      .trim()
      .max(30, { error: msg.maxLength(30) })
      .regex(/^$|^\+?[\d\s().-]{6,30}$/, { error: msg.invalid('Teléfono') })
      .nullable()
      .optional()
      .transform((v) => (v === '' ? null : v)),
    biography: optionalText(2000),
    birthdate: z
      .string()
      .regex(/^$|^\d{4}-\d{2}-\d{2}$/, { error: msg.invalidDate() })
      .refine((v) => v === '' || (!Number.isNaN(Date.parse(v)) && v >= '1900-01-01' && Date.parse(v) <= Date.now()), {
        error: msg.invalidDate(),
      })
      .nullable()
      .optional()
      .transform((v) => (v === '' ? null : v)),
    registrationNumber: optionalText(50),
    /** Email is not editable here: it identifies the account. */
  })
  .partial()
  .strict();
export type UpdateProfileBody = z.input<typeof updateProfileBody>;
