import { useState } from 'react';
import type { CredentialsForm as Credentials } from '../schemas';
import { Alert } from '@/components/ui/alert';
import { useAuthStore } from '@/stores/auth-store';
import { authApi } from '../api/auth-api';
import { AuthHeading } from '../components/auth-heading';
import { CredentialsForm } from '../components/credentials-form';
import { LoginCodeForm } from '../components/login-code-form';
import { TotpCodeForm } from '../components/totp-code-form';
import { PasskeySecondStep } from '../components/passkey-second-step';
import { PasskeySignIn } from '../components/passkey-sign-in';
import { SocialButtons } from '../components/social-buttons';
import { authPath } from '../utils/auth-links';
import { AuthLink, useAuthParams } from '../utils/auth-nav';
import { usePageTitle } from '@/lib/use-page-title';

type Step = { credentials: Credentials; challenge: string; sentAt: number; method: 'email' | 'totp' | 'passkey'; passkey: boolean };

export function SignInRoute() {
  usePageTitle('Iniciar sesión');
  const [step, setStep] = useState<Step | null>(null);
  const [withPasskey, setWithPasskey] = useState(false);
  const expired = useAuthStore((s) => s.lastSignOut === 'expired');
  // The guest guard takes the user to `redirect` once signed in; sign-up keeps it too, and a colleague's `ref`.
  const params = useAuthParams();
  const redirect = params.get('redirect');
  const invited = redirect?.startsWith('/workspaces/join/');

  // A passkey answers the second step of an account whose only second factor is one, or instead of the app's code.
  if (step && (step.method === 'passkey' || (step.method === 'totp' && withPasskey))) {
    return (
      <>
        <AuthHeading title="Verificación en dos pasos" />
        <PasskeySecondStep
          key={step.challenge}
          challenge={step.challenge}
          onBack={() => (setStep(null), setWithPasskey(false))}
          onUseApp={step.method === 'totp' ? () => setWithPasskey(false) : undefined}
        />
      </>
    );
  }

  if (step?.method === 'totp') {
    return (
      <>
        <AuthHeading title="Verificación en dos pasos" />
        <TotpCodeForm
          key={step.challenge}
          challenge={step.challenge}
          onBack={() => setStep(null)}
          onUsePasskey={step.passkey ? () => setWithPasskey(true) : undefined}
        />
      </>
    );
  }

  if (step) {
    return (
      <>
        <AuthHeading title="Revisa tu email" />
        <LoginCodeForm
          key={step.challenge}
          email={step.credentials.email}
          challenge={step.challenge}
          sentAt={step.sentAt}
          onBack={() => setStep(null)}
          onResend={async () => {
            const { challenge } = await authApi.requestLoginCode(step.credentials);
            setStep({ ...step, challenge, sentAt: Date.now() });
          }}
        />
      </>
    );
  }

  return (
    <>
      <AuthHeading title="Inicia sesión">
        {invited
          ? 'Entra para ver la invitación. Si aún no tienes cuenta, créala con el email al que te ha llegado.'
          : 'Te damos la bienvenida de nuevo a tu consulta.'}
      </AuthHeading>
      {expired ? <Alert className="mb-5">Tu sesión ha caducado. Vuelve a iniciar sesión.</Alert> : null}
      <SocialButtons form="login" redirect={redirect} />
      <CredentialsForm
        onChallenge={(credentials, { challenge, method, passkey }) =>
          setStep({ credentials, challenge, sentAt: Date.now(), method: method ?? 'email', passkey: !!passkey })
        }
      />
      <div className="my-5 flex items-center gap-3 text-xs text-muted-foreground" aria-hidden>
        <span className="h-px flex-1 bg-border" />o<span className="h-px flex-1 bg-border" />
      </div>
      <PasskeySignIn />
      <p className="mt-8 text-center text-sm text-muted-foreground">
        ¿Aún no tienes cuenta?{' '}
        <AuthLink to={authPath('/sign-up', { redirect, ref: params.get('ref') })} className="font-medium text-primary hover:underline">
          Crea una gratis
        </AuthLink>
      </p>
    </>
  );
}

export { SignInRoute as Component };
