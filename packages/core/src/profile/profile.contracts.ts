import { z } from 'zod';
import { birthdateField, optionalPersonName, optionalText, personNameField } from '../fields';
import { phoneField } from '../phone/phone.contracts';

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
    firstName: personNameField('nombre', 100),
    lastName: optionalPersonName('Apellidos', 150),
    phone: phoneField(),
    biography: optionalText('Biografía', 2000),
    birthdate: birthdateField(),
    registrationNumber: optionalText('Número de colegiado', 50),
    /** Email is not editable here: it identifies the account. */
  })
  .partial()
  .strict();
export type UpdateProfileBody = z.input<typeof updateProfileBody>;
