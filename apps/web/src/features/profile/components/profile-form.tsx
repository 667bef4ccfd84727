import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { formatPhone, updateProfileBody, type Profile } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';
import { dmyToIsoDate, isoDateToDmy } from '@/lib/format';
import { useUnsavedChanges } from '@/lib/unsaved-changes';
import { useSaveForm } from '@/lib/use-save-form';
import { useUpdateProfile } from '../api/profile-api';

const fields = updateProfileBody.shape;
/** The shared rules, except that the birthdate is typed the Spanish way (DD/MM/YYYY) and sent as YYYY-MM-DD. */
const profileForm = z.object({
  firstName: fields.firstName,
  lastName: fields.lastName,
  phone: fields.phone,
  biography: fields.biography,
  registrationNumber: fields.registrationNumber,
  birthdate: z.string().transform((text, ctx) => {
    const parsed = fields.birthdate.safeParse(dmyToIsoDate(text));
    if (parsed.success) return parsed.data ?? null;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message });
    return z.NEVER;
  }),
});
type FormIn = z.input<typeof profileForm>;
type FormOut = z.output<typeof profileForm>;
const names = ['firstName', 'lastName', 'phone', 'biography', 'registrationNumber', 'birthdate'] as const;

const toForm = (p: Profile): FormIn => ({
  firstName: p.firstName,
  lastName: p.lastName ?? '',
  phone: formatPhone(p.phone),
  biography: p.biography ?? '',
  registrationNumber: p.registrationNumber ?? '',
  birthdate: isoDateToDmy(p.birthdate),
});

export function ProfileForm({ profile }: { profile: Profile }) {
  const update = useUpdateProfile();
  const form = useForm<FormIn, unknown, FormOut>({ resolver: zodResolver(profileForm), values: toForm(profile) });
  const { errors, isDirty, isSubmitting } = form.formState;
  useUnsavedChanges(isDirty);
  const { onSubmit, formError } = useSaveForm(form, { save: update.mutateAsync, success: 'Perfil guardado', fields: names });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Card>
        <CardHeader>
          <CardTitle>Datos personales y profesionales</CardTitle>
          <CardDescription>Cómo te ven tus compañeros en Diván: tu nombre aparece en las fichas que tienes asignadas.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5 sm:grid-cols-2">
          {formError ? (
            <Alert variant="error" className="sm:col-span-2">
              {formError}
            </Alert>
          ) : null}
          <Field label="Nombre" error={errors.firstName?.message}>
            <Input autoComplete="given-name" {...form.register('firstName')} />
          </Field>
          <Field label="Apellidos" error={errors.lastName?.message}>
            <Input autoComplete="family-name" {...form.register('lastName')} />
          </Field>
          <Field label="Email" hint="Identifica tu cuenta; no se puede cambiar desde aquí.">
            <Input type="email" value={profile.email} readOnly />
          </Field>
          <Field label="Teléfono" error={errors.phone?.message} hint="Si no es español, con su prefijo (+33…)">
            <Input type="tel" autoComplete="tel" inputMode="tel" placeholder="612 34 56 78" {...form.register('phone')} />
          </Field>
          <Field label="Fecha de nacimiento" error={errors.birthdate?.message} hint="Formato DD/MM/AAAA">
            <Input inputMode="numeric" autoComplete="bday" placeholder="DD/MM/AAAA" {...form.register('birthdate')} />
          </Field>
          <Field label="Número de colegiado" error={errors.registrationNumber?.message}>
            <Input placeholder="Ej. M-12345" {...form.register('registrationNumber')} />
          </Field>
          <Field
            label="Biografía"
            error={errors.biography?.message}
            className="sm:col-span-2"
            hint="Una presentación breve de tu enfoque y tu experiencia."
          >
            <Textarea rows={5} {...form.register('biography')} />
          </Field>
        </CardContent>
        <CardFooter>
          <Button type="button" variant="ghost" disabled={!isDirty || isSubmitting} onClick={() => form.reset()}>
            Descartar
          </Button>
          <Button type="submit" loading={isSubmitting} disabled={!isDirty}>
            Guardar cambios
          </Button>
        </CardFooter>
      </Card>
    </form>
  );
}
