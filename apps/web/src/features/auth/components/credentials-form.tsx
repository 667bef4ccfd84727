import { useState } from 'react';
import { toast } from '@/lib/toast';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { applyApiError } from '@/lib/form-errors';
import { lazySchema, useLightForm } from '@/lib/use-light-form';
import { isApiError } from '@/lib/http';
import { useRequestLoginCode, useResendConfirmation } from '../api/auth-mutations';
import type { LoginChallenge } from '../api/auth-api';
import type { CredentialsForm as Values } from '../schemas';
import { AuthLink } from '../utils/auth-nav';

const schema = lazySchema(() => import('../schemas').then((m) => m.credentialsForm));

type Props = { onChallenge: (credentials: Values, challenge: LoginChallenge) => void };

/** Step 1 of sign-in: email and password, answered with a code sent by email. */
export function CredentialsForm({ onChallenge }: Props) {
  const requestCode = useRequestLoginCode();
  const resend = useResendConfirmation();
  const [formError, setFormError] = useState<string | null>(null);
  const [unverifiedEmail, setUnverifiedEmail] = useState<string | null>(null);
  const form = useLightForm({ schema, defaultValues: { email: '', password: '' } });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    setUnverifiedEmail(null);
    try {
      const challenge = await requestCode.mutateAsync(values);
      onChallenge(values, challenge);
    } catch (error) {
      if (isApiError(error) && error.code === 'user_email_not_verified') setUnverifiedEmail(values.email);
      setFormError(applyApiError(error, form.setError, { user_not_found: 'email', invalid_password: 'password' }, ['email', 'password']));
    }
  });

  const resendConfirmation = async () => {
    if (!unverifiedEmail) return;
    try {
      await resend.mutateAsync(unverifiedEmail);
      toast.success('Te hemos enviado de nuevo el enlace de confirmación.');
      setFormError(null);
      setUnverifiedEmail(null);
    } catch (error) {
      setFormError(isApiError(error) ? error.message : 'Error al reenviar el email');
    }
  };

  return (
    <form onSubmit={(e) => void onSubmit(e)} onInput={schema.preload} noValidate className="grid gap-5">
      {formError ? (
        <Alert variant="error">
          <p>{formError}</p>
          {unverifiedEmail ? (
            <Button type="button" variant="outline" size="sm" className="mt-3" loading={resend.isPending} onClick={resendConfirmation}>
              Reenviar email de confirmación
            </Button>
          ) : null}
        </Alert>
      ) : null}
      <Field label="Email" error={errors.email?.message}>
        {/* `webauthn`: the browser may offer the person's passkeys here (conditional UI, issue 32). */}
        <Input type="email" autoComplete="username webauthn" inputMode="email" autoFocus {...form.register('email')} />
      </Field>
      <Field
        label="Contraseña"
        error={errors.password?.message}
        aside={
          <AuthLink to="/forgot-password" className="text-[0.8125rem] font-medium text-primary hover:underline">
            ¿La has olvidado?
          </AuthLink>
        }
      >
        <PasswordInput autoComplete="current-password" {...form.register('password')} />
      </Field>
      <Button type="submit" size="lg" loading={form.formState.isSubmitting}>
        Continuar
      </Button>
    </form>
  );
}
