import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { isApiError } from '@/lib/http';
import { lazySchema, useLightForm } from '@/lib/use-light-form';
import { useRequestPasswordReset } from '../api/auth-mutations';
import { AuthHeading } from '../components/auth-heading';
import { AuthLink } from '../utils/auth-nav';
import { usePageTitle } from '@/lib/use-page-title';

const schema = lazySchema(() => import('../schemas').then((m) => m.forgotPasswordForm));

export function ForgotPasswordRoute() {
  usePageTitle('Recuperar contraseña');
  const request = useRequestPasswordReset();
  const [sent, setSent] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useLightForm({ schema, defaultValues: { email: '' } });

  const onSubmit = form.handleSubmit(async ({ email }) => {
    setFormError(null);
    try {
      await request.mutateAsync(email);
      setSent(true);
    } catch (error) {
      setFormError(isApiError(error) ? error.message : null);
    }
  });

  return (
    <>
      <AuthHeading title="Recupera tu contraseña">
        Escribe el email de tu cuenta y te enviaremos un enlace para elegir una contraseña nueva.
      </AuthHeading>
      {sent ? (
        // The same answer whether or not the account exists, so the form can't be used to probe emails.
        <Alert variant="success">
          Si existe una cuenta con ese email, te hemos enviado un enlace para restablecer la contraseña. Caduca en una hora.
        </Alert>
      ) : (
        <form onSubmit={(e) => void onSubmit(e)} onInput={schema.preload} noValidate className="grid gap-5">
          {formError ? <Alert variant="error">{formError}</Alert> : null}
          <Field label="Email" error={form.formState.errors.email?.message}>
            <Input type="email" autoComplete="email" inputMode="email" autoFocus {...form.register('email')} />
          </Field>
          <Button type="submit" size="lg" loading={form.formState.isSubmitting}>
            Enviar enlace
          </Button>
        </form>
      )}
      <p className="mt-8 text-center text-sm text-muted-foreground">
        <AuthLink to="/sign-in" className="font-medium text-primary hover:underline">
          Volver a iniciar sesión
        </AuthLink>
      </p>
    </>
  );
}

export { ForgotPasswordRoute as Component };
