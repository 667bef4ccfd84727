import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Logo } from '@/components/ui/logo';
import { refreshSession } from '@/lib/auth-session';
import { usePageTitle } from '@/lib/use-page-title';
import { useSignOut } from '../api/account-api';
import { TotpEnrolment } from '../components/totp-enrolment';

/**
 * «Segundo factor obligatorio» (issue 32): a workspace of this person requires a second factor they have not set up.
 * Until they do, this is all the app shows (the server refuses everything else); once enabled, a fresh access token
 * without the restriction opens the app.
 */
export function SecondFactorEnrolRoute() {
  usePageTitle('Configura la verificación en dos pasos');
  const navigate = useNavigate();
  const signOut = useSignOut();
  return (
    <div className="mx-auto grid min-h-dvh max-w-xl content-start gap-6 px-4 py-10">
      <Logo />
      <div className="grid gap-2">
        <h1 className="text-2xl font-semibold">Configura la verificación en dos pasos</h1>
        <p className="text-muted-foreground">
          Tu espacio de trabajo exige un segundo factor para entrar. Configura una app de autenticación en tu móvil para continuar.
        </p>
      </div>
      <div className="rounded-xl border bg-card p-5 sm:p-6">
        <TotpEnrolment
          onFinished={() => {
            void refreshSession()
              .catch(() => undefined)
              .then(() => navigate('/', { replace: true }));
          }}
        />
      </div>
      <div>
        <Button type="button" variant="ghost" onClick={() => void signOut.mutateAsync(undefined)} loading={signOut.isPending}>
          Cerrar sesión
        </Button>
      </div>
    </div>
  );
}

export { SecondFactorEnrolRoute as Component };
