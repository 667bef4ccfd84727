import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from '@/lib/toast';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';
import { applyApiError } from '@/lib/form-errors';
import { lazyZodResolver } from '@/lib/lazy-resolver';
import { useChangePassword } from '../api/account-api';
import { useIdentities } from '../api/identities-api';
import { CreatePasswordCard } from '../components/create-password-card';
import { LinkedAccounts } from '../components/linked-accounts';
import { SecondFactorCard } from '../components/second-factor-card';
import { PasskeysCard } from '../components/passkeys-card';

import type { ChangePasswordForm as PasswordForm } from '../schemas';
import { usePageTitle } from '@/lib/use-page-title';

const { resolver, preload } = lazyZodResolver(() => import('../schemas').then((m) => m.changePasswordForm));

const empty: PasswordForm = { currentPassword: '', newPassword: '', repeatPassword: '' };

export function SecuritySettingsRoute() {
  usePageTitle('Seguridad');
  const change = useChangePassword();
  // An account made with Google or Apple has no password to change: it may create one.
  const hasPassword = useIdentities().data?.hasPassword ?? true;
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<PasswordForm, unknown, PasswordForm>({ resolver, defaultValues: empty });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ currentPassword, newPassword }) => {
    setFormError(null);
    try {
      await change.mutateAsync({ currentPassword, newPassword });
      form.reset(empty);
      toast.success('Contraseña actualizada');
    } catch (error) {
      setFormError(
        applyApiError(
          error,
          form.setError,
          { invalid_password: 'currentPassword', password_equal: 'newPassword', password_conditions: 'newPassword' },
          ['currentPassword', 'newPassword'],
        ),
      );
    }
  });

  return (
    <div className="grid gap-6">
      {hasPassword ? (
        <form onSubmit={onSubmit} onInput={preload} noValidate>
          <Card>
            <CardHeader>
              <CardTitle>Cambiar contraseña</CardTitle>
              <CardDescription>Usa al menos 8 caracteres y combina dos tipos: mayúsculas, minúsculas, números o símbolos.</CardDescription>
            </CardHeader>
            <CardContent className="grid max-w-md gap-5">
              {formError ? <Alert variant="error">{formError}</Alert> : null}
              <Field label="Contraseña actual" error={errors.currentPassword?.message}>
                <PasswordInput autoComplete="current-password" {...form.register('currentPassword')} />
              </Field>
              <Field label="Nueva contraseña" error={errors.newPassword?.message}>
                <PasswordInput autoComplete="new-password" {...form.register('newPassword')} />
              </Field>
              <Field label="Repite la nueva contraseña" error={errors.repeatPassword?.message}>
                <PasswordInput autoComplete="new-password" {...form.register('repeatPassword')} />
              </Field>
            </CardContent>
            <CardFooter>
              <Button type="submit" loading={isSubmitting}>
                Actualizar contraseña
              </Button>
            </CardFooter>
          </Card>
        </form>
      ) : (
        <CreatePasswordCard />
      )}
      <PasskeysCard />
      <SecondFactorCard />
      <LinkedAccounts />
    </div>
  );
}

export { SecuritySettingsRoute as Component };
