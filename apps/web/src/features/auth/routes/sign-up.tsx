import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { applyApiError } from '@/lib/form-errors';
import { lazySchema, useLightForm } from '@/lib/use-light-form';
import { useSignUp } from '../api/auth-mutations';
import { AuthHeading } from '../components/auth-heading';
import { ReferralNote, useReferralInviter } from '../components/referral-note';
import { rememberAfterVerify } from '../utils/after-verify';
import { ResendConfirmation } from '../components/resend-confirmation';
import { SocialButtons } from '../components/social-buttons';
import { authPath } from '../utils/auth-links';
import { AuthLink, useAuthParams } from '../utils/auth-nav';
import { FRIEND_DAYS, isCode, normalizeCode } from '../utils/referral-code';
import { usePageTitle } from '@/lib/use-page-title';

const schema = lazySchema(() => import('../schemas').then((m) => m.signUpForm));

export function SignUpRoute() {
  usePageTitle('Crear cuenta');
  const signUp = useSignUp();
  const params = useAuthParams();
  const redirect = params.get('redirect');
  const invited = redirect?.startsWith('/workspaces/join/');
  // A colleague's link (`/sign-up?ref=CODE`): the code is filled in and who invites is greeted.
  const ref = normalizeCode(params.get('ref') ?? '');
  const [showCode, setShowCode] = useState(ref !== '');
  const [codeOpened, setCodeOpened] = useState(false);
  const { inviter, check, edited } = useReferralInviter(ref);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useLightForm({
    schema,
    defaultValues: { firstName: '', email: '', password: '', repeatPassword: '', referralCode: ref },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async ({ repeatPassword: _repeat, referralCode, ...account }) => {
    setFormError(null);
    try {
      // No code: none sent (the field is optional).
      await signUp.mutateAsync(referralCode ? { ...account, referralCode } : account);
      rememberAfterVerify(account.email, redirect);
      setSentTo(account.email);
    } catch (error) {
      setFormError(
        applyApiError(
          error,
          form.setError,
          { user_email_already_exists: 'email', password_conditions: 'password', referral_code_not_found: 'referralCode' },
          ['firstName', 'email', 'password', 'referralCode'],
        ),
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
      <ReferralNote inviter={inviter} />
      {/* A new account through Google or Apple keeps the colleague's code of the link (unless it does not exist). */}
      <SocialButtons form="signup" redirect={redirect} referralCode={isCode(ref) && inviter.state !== 'missing' ? ref : undefined} />
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
        {showCode ? (
          <Field
            label="Código de invitación"
            aside={<span className="text-[0.8125rem] text-muted-foreground">Opcional</span>}
            error={errors.referralCode?.message}
            hint={
              inviter.state === 'missing'
                ? 'Ese código no existe: corrígelo o déjalo vacío.'
                : `El que te ha pasado un colega: ${FRIEND_DAYS} días más de prueba gratis.`
            }
          >
            <Input
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              // Opened by «¿Tienes un código…?»: the caret goes there.
              autoFocus={codeOpened}
              className="font-mono uppercase tracking-[0.15em]"
              {...form.register('referralCode', { onChange: (e) => edited(e.target.value) })}
              onBlur={(e) => check(e.target.value)}
            />
          </Field>
        ) : (
          <Button
            type="button"
            variant="link"
            size="none"
            className="justify-self-start"
            onClick={() => {
              setShowCode(true);
              setCodeOpened(true);
            }}
          >
            ¿Tienes un código de invitación?
          </Button>
        )}
        <Button type="submit" size="lg" loading={form.formState.isSubmitting}>
          Crear cuenta
        </Button>
      </form>
      <p className="mt-8 text-center text-sm text-muted-foreground">
        ¿Ya tienes cuenta?{' '}
        <AuthLink to={authPath('/sign-in', { redirect, ref })} className="font-medium text-primary hover:underline">
          Inicia sesión
        </AuthLink>
      </p>
    </>
  );
}

export { SignUpRoute as Component };
