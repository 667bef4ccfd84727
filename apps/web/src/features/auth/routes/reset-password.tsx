import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from '@/lib/toast';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';
import { isApiError } from '@/lib/http';
import { applyApiError } from '@/lib/form-errors';
import { lazySchema, useLightForm } from '@/lib/use-light-form';
import { useResetPassword } from '../api/auth-mutations';
import { AuthHeading } from '../components/auth-heading';
import { PasskeySecondStep } from '../components/passkey-second-step';
import { TotpCodeForm } from '../components/totp-code-form';
import type { LoginChallenge } from '../api/auth-api';
import { usePageTitle } from '@/lib/use-page-title';

const schema = lazySchema(() => import('../schemas').then((m) => m.resetPasswordForm));

const linkProblems = new Set(['challenge_expired', 'challenge_not_found']);

export function ResetPasswordRoute() {
  usePageTitle('Nueva contraseña');
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const reset = useResetPassword();
  const [formError, setFormError] = useState<{ code: string; message: string } | null>(null);
  const form = useLightForm({ schema, defaultValues: { password: '', repeatPassword: '' } });
  const { errors } = form.formState;
  // An account with a second factor: the new password is saved, and signing in still asks for that factor.
  const [step, setStep] = useState<LoginChallenge | null>(null);
  const [withPasskey, setWithPasskey] = useState(false);

  const onSubmit = form.handleSubmit(async ({ password }) => {
    setFormError(null);
    try {
      const result = await reset.mutateAsync({ code: token, password });
      if ('challenge' in result) return setStep(result);
      toast.success('Contraseña actualizada. Ya has iniciado sesión.');
      await navigate('/', { replace: true });
    } catch (error) {
      const message = applyApiError(error, form.setError, { password_conditions: 'password' }, ['password']);
      if (message) setFormError({ code: isApiError(error) ? error.code : 'unexpected_error', message });
    }
  });

  if (step) {
    const back = () => void navigate('/sign-in', { replace: true });
    const passkey = step.method === 'passkey' || (step.passkey && withPasskey);
    return (
      <>
        <AuthHeading title="Verificación en dos pasos">Tu contraseña nueva está guardada. Confirma que eres tú para entrar.</AuthHeading>
        {passkey ? (
          <PasskeySecondStep
            challenge={step.challenge}
            onBack={back}
            onUseApp={step.method === 'totp' ? () => setWithPasskey(false) : undefined}
          />
        ) : (
          <TotpCodeForm challenge={step.challenge} onBack={back} onUsePasskey={step.passkey ? () => setWithPasskey(true) : undefined} />
        )}
      </>
    );
  }

  return (
    <>
      <AuthHeading title="Elige una contraseña nueva">
        Usa al menos 8 caracteres y combina dos tipos: mayúsculas, minúsculas, números o símbolos.
      </AuthHeading>
      <form onSubmit={(e) => void onSubmit(e)} onInput={schema.preload} noValidate className="grid gap-5">
        {formError ? (
          <Alert variant="error">
            {formError.message} {linkProblems.has(formError.code) ? <Link to="/forgot-password">Pedir un enlace nuevo</Link> : null}
          </Alert>
        ) : null}
        <Field label="Nueva contraseña" error={errors.password?.message}>
          <PasswordInput autoComplete="new-password" autoFocus {...form.register('password')} />
        </Field>
        <Field label="Repite la contraseña" error={errors.repeatPassword?.message}>
          <PasswordInput autoComplete="new-password" {...form.register('repeatPassword')} />
        </Field>
        <Button type="submit" size="lg" loading={form.formState.isSubmitting}>
          Guardar y entrar
        </Button>
      </form>
      <p className="mt-8 text-center text-sm text-muted-foreground">
        <Link to="/sign-in" className="font-medium text-primary hover:underline">
          Volver a iniciar sesión
        </Link>
      </p>
    </>
  );
}

export { ResetPasswordRoute as Component };
