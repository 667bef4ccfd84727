import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { applyApiError } from '@/lib/form-errors';
import { lazySchema, useLightForm } from '@/lib/use-light-form';
import { useSignUp } from '../api/auth-mutations';
import { AuthHeading } from '../components/auth-heading';
import { rememberAfterVerify } from '../utils/after-verify';
import { ResendConfirmation } from '../components/resend-confirmation';
import { usePageTitle } from '@/lib/use-page-title';

const schema = lazySchema(() => import('../schemas').then((m) => m.signUpForm));

export function SignUpRoute() {
  usePageTitle('Crear cuenta');
  const signUp = useSignUp();
  const [params] = useSearchParams();
  const redirect = params.get('redirect');
  const invited = redirect?.startsWith('/workspaces/join/');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useLightForm({ schema, defaultValues: { firstName: '', email: '', password: '', repeatPassword: '' } });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async ({ repeatPassword: _repeat, ...body }) => {
    setFormError(null);
    try {
      await signUp.mutateAsync(body);
      rememberAfterVerify(body.email, redirect);
      setSentTo(body.email);
    } catch (error) {
      setFormError(
        applyApiError(error, form.setError, { user_email_already_exists: 'email', password_conditions: 'password' }, [
          'firstName',
          'email',
          'password',
        ]),
      );
    }
  });

  if (sentTo) return <ResendConfirmation email={sentTo} redirect={redirect} />;

  return (
    <>
      <AuthHeading title="Crea tu cuenta">
        {invited
          ? 'Usa el email al que te ha llegado la invitación. Al confirmarlo volverás a ella para unirte al espacio.'
          : 'Organiza tu consulta en un solo lugar. Empieza en un minuto.'}
      </AuthHeading>
      <form onSubmit={(e) => void onSubmit(e)} onInput={schema.preload} noValidate className="grid gap-5">
        {formError ? <Alert variant="error">{formError}</Alert> : null}
        <Field label="Nombre" error={errors.firstName?.message}>
          <Input autoComplete="given-name" autoFocus {...form.register('firstName')} />
        </Field>
        <Field label="Email" error={errors.email?.message}>
          <Input type="email" autoComplete="email" inputMode="email" {...form.register('email')} />
        </Field>
        <Field
          label="Contraseña"
          error={errors.password?.message}
          hint="Al menos 8 caracteres, combinando dos tipos: mayúsculas, minúsculas, números o símbolos."
        >
          <PasswordInput autoComplete="new-password" {...form.register('password')} />
        </Field>
        <Field label="Repite la contraseña" error={errors.repeatPassword?.message}>
          <PasswordInput autoComplete="new-password" {...form.register('repeatPassword')} />
        </Field>
        <Button type="submit" size="lg" loading={form.formState.isSubmitting}>
          Crear cuenta
        </Button>
      </form>
      <p className="mt-8 text-center text-sm text-muted-foreground">
        ¿Ya tienes cuenta?{' '}
        <Link
          to={redirect ? `/sign-in?redirect=${encodeURIComponent(redirect)}` : '/sign-in'}
          className="font-medium text-primary hover:underline"
        >
          Inicia sesión
        </Link>
      </p>
    </>
  );
}

export { SignUpRoute as Component };
