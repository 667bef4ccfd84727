import { useEffect, useRef, useState } from 'react';
import { KeyRound } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { cancelPasskeyRequest, getPasskey, passkeyFailure, passkeysSupported, supportsPasskeyAutofill } from '@/lib/passkeys';
import { authApi } from '../api/auth-api';
import { usePasskeySignIn } from '../api/auth-mutations';

/**
 * «Entrar con una llave de acceso» (issue 32): a passkey alone signs in (a discoverable credential). Where the browser
 * offers its passkeys under the email field (conditional UI, `autocomplete="username webauthn"`), that request waits
 * in the background from the start; the button asks at once. Nothing is shown where passkeys cannot work (a browser
 * without WebAuthn, a page opened by IP address).
 */
export function PasskeySignIn() {
  const signIn = usePasskeySignIn();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const live = useRef(true);
  const supported = passkeysSupported();

  const answer = async (autofill: boolean) => {
    const options = await authApi.passkeySignInOptions();
    const response = await getPasskey(options, autofill);
    await signIn.mutateAsync(response);
    // The guest guard notices the session and moves on to the app.
  };

  useEffect(() => {
    live.current = true;
    if (!supported) return;
    void supportsPasskeyAutofill().then((ok) => {
      if (!ok || !live.current) return;
      // The background request says nothing when it fails (the browser may refuse it before anyone asked):
      // the button, when pressed, says why.
      answer(true).catch(() => undefined);
    });
    return () => {
      live.current = false;
      void cancelPasskeyRequest();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (!supported) return null;

  const onClick = async () => {
    setError(null);
    setBusy(true);
    try {
      await answer(false);
    } catch (e) {
      if (live.current) setError(passkeyFailure(e));
    } finally {
      if (live.current) setBusy(false);
    }
  };

  return (
    <div className="grid gap-3">
      {error ? <Alert variant="error">{error}</Alert> : null}
      <Button type="button" variant="outline" size="lg" onClick={() => void onClick()} loading={busy}>
        <KeyRound aria-hidden /> Entrar con una llave de acceso
      </Button>
    </div>
  );
}
