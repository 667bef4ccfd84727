import { useState } from 'react';
import { useNavigate } from 'react-router';
import { KeyRound } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { passkeyFailure, passkeysSupported } from '@/lib/passkeys';
import { passkeysApi } from '../api/passkeys-api';
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
  const [passkeyError, setPasskeyError] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const enter = () => {
    void refreshSession()
      .catch(() => undefined)
      .then(() => navigate('/', { replace: true }));
  };
  // A passkey is a second factor too: created here with a default name (renamed later in Ajustes › Seguridad).
  const addPasskey = async () => {
    setPasskeyError(null);
    setAdding(true);
    try {
      await passkeysApi.add('Llave de acceso');
      enter();
    } catch (e) {
      setPasskeyError(passkeyFailure(e));
    } finally {
      setAdding(false);
    }
  };
  return (
    <div className="mx-auto grid min-h-dvh max-w-xl content-start gap-6 px-4 py-10">
      <Logo />
      <div className="grid gap-2">
        <h1 className="text-2xl font-semibold">Configura la verificación en dos pasos</h1>
        <p className="text-muted-foreground">
          Tu espacio de trabajo exige un segundo factor para entrar. Añade una llave de acceso o configura una app de autenticación en tu
          móvil para continuar.
        </p>
      </div>
      {passkeysSupported() ? (
        <div className="grid gap-3 rounded-xl border bg-card p-5 sm:p-6">
          <h2 className="font-semibold">Con una llave de acceso</h2>
          <p className="text-sm text-muted-foreground">La huella, la cara o el PIN de este dispositivo, o una llave de seguridad.</p>
          {passkeyError ? <Alert variant="error">{passkeyError}</Alert> : null}
          <div>
            <Button type="button" onClick={() => void addPasskey()} loading={adding}>
              <KeyRound aria-hidden /> Añadir una llave de acceso
            </Button>
          </div>
        </div>
      ) : null}
      <div className="rounded-xl border bg-card p-5 sm:p-6">
        <TotpEnrolment onFinished={enter} />
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
