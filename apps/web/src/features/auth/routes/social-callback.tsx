import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { CircleAlert } from 'lucide-react';
import type { AuthTokens, SocialProvider } from '@divan/core';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { isApiError } from '@/lib/http';
import { safeRedirect } from '@/lib/safe-redirect';
import { toast } from '@/lib/toast';
import { usePageTitle } from '@/lib/use-page-title';
import { useAuthStore } from '@/stores/auth-store';
import { socialApi } from '../api/social-api';
import { AuthHeading } from '../components/auth-heading';
import { PROVIDER_LABEL } from '../components/provider-logo';
import { SocialLinkForm, type SecondStepChallenge } from '../components/social-link-form';
import { PasskeySecondStep } from '../components/passkey-second-step';
import { TotpCodeForm } from '../components/totp-code-form';
import { takeSocialIntent, type SocialIntent } from '../utils/social-intent';

type Phase =
  | { step: 'working' }
  | { step: 'error'; title: string; message: string; back: 'sign-in' | 'security' }
  | { step: 'link'; link: string; email: string; redirect: string }
  | { step: 'second'; answer: SecondStepChallenge; redirect: string; withPasskey: boolean };

const isProvider = (value: string | undefined): value is SocialProvider => value === 'google' || value === 'apple';

/** The provider's own refusals (`?error=`): the person said no, or the provider could not finish. */
function providerErrorText(error: string, label: string): string {
  if (error === 'access_denied' || error === 'user_cancelled_authorize' || error === 'consent_required')
    return `Has cancelado el acceso con ${label}. Puedes volver a intentarlo o entrar con tu email.`;
  return `${label} no ha podido completar el acceso. Vuelve a intentarlo dentro de un momento o entra con tu email.`;
}

/**
 * `/auth/{google|apple}/callback`: where the provider sends the browser back (Apple's form_post is relayed here
 * by the server as a 303 with `code`, `state` and, on the first consent only, `user`). It hands the answer to the
 * server exactly once (the state is single-use; StrictMode's double effect must not send it twice): signed in,
 * the code mailed to an existing account with the same email, or — started in Ajustes › Seguridad — another
 * provider linked to the signed-in account.
 */
export function SocialCallbackRoute() {
  const { provider: raw } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const provider = isProvider(raw) ? raw : null;
  const label = provider ? PROVIDER_LABEL[provider] : 'el proveedor';
  usePageTitle(`Entrar con ${label}`);
  const [phase, setPhase] = useState<Phase>({ step: 'working' });
  const started = useRef(false);
  // The second step (an account with a second factor) stores the session itself: then on to the app.
  const loggedIn = useAuthStore((st) => st.loggedIn);
  useEffect(() => {
    if (phase.step === 'second' && loggedIn) void navigate(phase.redirect, { replace: true });
  }, [phase, loggedIn, navigate]);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const code = params.get('code');
    const state = params.get('state');
    const user = params.get('user') ?? undefined;
    const error = params.get('error');
    const intent: SocialIntent | null = provider ? takeSocialIntent(provider) : null;
    const linking = intent?.kind === 'link';
    const back = linking ? 'security' : 'sign-in';
    const fail = (message: string, title = `No hemos podido entrar con ${label}`) =>
      setPhase({ step: 'error', title: linking ? `No hemos podido vincular ${label}` : title, message, back });
    const failed = (e: unknown) =>
      fail(isApiError(e) ? e.message : `No hemos podido comprobar la respuesta de ${label}. Vuelve a intentarlo.`);
    const redirect = safeRedirect(intent?.redirect);

    const signedIn = (tokens: AuthTokens & { created?: boolean }) => {
      useAuthStore.getState().setSession(tokens);
      if (tokens.created) toast.success('¡Cuenta creada! Te damos la bienvenida a Diván.');
      void navigate(redirect, { replace: true });
    };

    if (!provider) return fail('Este proveedor no está disponible en Diván.');
    if (error) return fail(providerErrorText(error, label));
    if (!code || !state) return fail(`Falta la respuesta de ${label}. Vuelve a intentarlo desde el principio.`);

    if (linking) {
      if (!useAuthStore.getState().loggedIn) return fail('Tu sesión ha terminado. Inicia sesión y vuelve a vincular la cuenta.');
      // The signed-in calls (token refresh included) load only for this case.
      void import('../api/identities-api')
        .then((m) => m.linkIdentity(provider, { code, state, user }))
        .then(() => {
          toast.success(`${label} vinculado: ya puedes entrar con tu cuenta de ${label}.`);
          void navigate('/settings/security', { replace: true });
        }, failed);
      return;
    }

    socialApi.login(provider, { code, state, user, form: intent?.kind === 'signup' ? 'signup' : 'login' }).then((answer) => {
      if (answer.kind === 'signed_in') signedIn(answer);
      else if (answer.kind === 'second_factor') setPhase({ step: 'second', answer, redirect, withPasskey: false });
      else setPhase({ step: 'link', link: answer.link, email: answer.email, redirect });
    }, failed);
  }, [label, navigate, params, provider]);

  if (phase.step === 'link' && provider)
    return (
      <>
        <AuthHeading title={`Vincula tu cuenta de ${label}`} />
        <SocialLinkForm
          provider={provider}
          link={phase.link}
          email={phase.email}
          onSignedIn={(tokens) => {
            if (tokens.kind === 'second_factor')
              return setPhase({ step: 'second', answer: tokens, redirect: phase.redirect, withPasskey: false });
            useAuthStore.getState().setSession(tokens);
            toast.success(`${label} vinculado a tu cuenta.`);
            void navigate(phase.redirect, { replace: true });
          }}
        />
      </>
    );

  if (phase.step === 'second') {
    const { answer } = phase;
    const back = () => void navigate('/sign-in', { replace: true });
    const withPasskey = (on: boolean) => setPhase({ ...phase, withPasskey: on });
    return (
      <>
        <AuthHeading title="Verificación en dos pasos" />
        {answer.method === 'passkey' || (answer.passkey && phase.withPasskey) ? (
          <PasskeySecondStep
            challenge={answer.challenge}
            onBack={back}
            onUseApp={answer.method === 'totp' ? () => withPasskey(false) : undefined}
          />
        ) : (
          <TotpCodeForm challenge={answer.challenge} onBack={back} onUsePasskey={answer.passkey ? () => withPasskey(true) : undefined} />
        )}
      </>
    );
  }

  if (phase.step === 'error')
    return (
      <div className="grid gap-6">
        <div className="grid size-14 place-items-center rounded-full bg-destructive/10 text-destructive">
          <CircleAlert className="size-7" aria-hidden />
        </div>
        <div className="grid gap-2">
          <h1 className="font-display text-[1.75rem] font-semibold leading-tight tracking-tight">{phase.title}</h1>
          <p role="alert" className="text-[0.9375rem] leading-relaxed text-muted-foreground">
            {phase.message}
          </p>
        </div>
        <div className="flex flex-wrap gap-3">
          {phase.back === 'security' ? (
            <Button asChild>
              <Link to="/settings/security">Volver a Seguridad</Link>
            </Button>
          ) : (
            <>
              <Button asChild>
                <Link to="/sign-in">Volver a iniciar sesión</Link>
              </Button>
              <Button asChild variant="outline">
                <Link to="/sign-up">Crear una cuenta</Link>
              </Button>
            </>
          )}
        </div>
      </div>
    );

  return (
    <div className="grid justify-items-start gap-4">
      <h1 className="font-display text-[1.75rem] font-semibold leading-tight tracking-tight">Entrando con {label}…</h1>
      <Spinner label={`Comprobando la respuesta de ${label}`} />
    </div>
  );
}

export { SocialCallbackRoute as Component };
