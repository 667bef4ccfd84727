import { useState } from 'react';
import { ArrowLeft, KeyRound } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { isApiError } from '@/lib/http';
import { getPasskey, passkeyFailure } from '@/lib/passkeys';
import { authApi } from '../api/auth-api';
import { usePasskeySecondStep } from '../api/auth-mutations';

/** Codes that mean this sign-in is spent: only starting again helps. */
const deadChallenge = new Set(['challenge_expired', 'challenge_not_found', 'max_attempts']);

type Props = { challenge: string; onBack: () => void; onUseApp?: () => void };

/** Step 2 of sign-in answered by a passkey instead of a mailed or an app's code (issue 32). */
export function PasskeySecondStep({ challenge, onBack, onUseApp }: Props) {
  const login = usePasskeySecondStep();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [dead, setDead] = useState(false);

  const use = async () => {
    setError(null);
    setBusy(true);
    try {
      const response = await getPasskey(await authApi.passkeySecondStepOptions(challenge));
      await login.mutateAsync({ challenge, response });
    } catch (e) {
      if (isApiError(e) && deadChallenge.has(e.code)) setDead(true);
      setError(passkeyFailure(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="grid gap-5">
      <p className="text-[0.9375rem] leading-relaxed text-muted-foreground">
        Confirma que eres tú con una de tus llaves de acceso: tu huella, tu cara, el PIN del dispositivo o una llave de seguridad.
      </p>
      {error ? <Alert variant="error">{error}</Alert> : null}
      <Button type="button" size="lg" onClick={() => void use()} loading={busy} disabled={dead} autoFocus>
        <KeyRound aria-hidden /> Usar mi llave de acceso
      </Button>
      <div className="flex flex-wrap items-center justify-between gap-3 text-sm">
        <Button type="button" variant="ghost" size="sm" onClick={onBack} className="-ml-3">
          <ArrowLeft aria-hidden /> Volver
        </Button>
        {onUseApp ? (
          <Button type="button" variant="link" size="none" onClick={onUseApp}>
            Usar el código de la app
          </Button>
        ) : null}
      </div>
    </div>
  );
}
