import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { inputBase } from '@/components/ui/input';
import { Modal } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { messageOf } from '@/lib/error-message';
import { getPasskey, passkeyFailure } from '@/lib/passkeys';
import { KeyRound } from 'lucide-react';
import { secondFactorApi } from '../api/second-factor-api';
import { passkeysApi } from '../api/passkeys-api';

type Mode = 'totp' | 'recovery' | 'email' | 'passkey';

/**
 * Step-up (issue 32): a sensitive action (exporting a patient's file, turning off «Segundo factor obligatorio») asks
 * for a passkey or the app's code — or a recovery code, or for an account with neither a mailed code — then is retried.
 * The signed-in shell opens it when the API client asks (lib/step-up) and hears `onDone`.
 */
export function StepUpDialog({ onDone }: { onDone: (ok: boolean) => void }) {
  const [mode, setMode] = useState<Mode | null>(null);
  const [challenge, setChallenge] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [has, setHas] = useState({ totp: false, passkey: false });
  const done = useRef(false);

  useEffect(() => {
    let live = true;
    secondFactorApi.status().then(
      (s) => {
        if (!live) return;
        setHas({ totp: s.totp, passkey: s.passkeys > 0 });
        setMode(s.passkeys > 0 ? 'passkey' : s.totp ? 'totp' : 'email');
      },
      () => live && setMode('totp'),
    );
    return () => {
      live = false;
    };
  }, []);

  const finish = (ok: boolean) => {
    if (done.current) return;
    done.current = true;
    onDone(ok);
  };

  const sendMail = async () => {
    setPending(true);
    setError(null);
    try {
      setChallenge((await secondFactorApi.startEmailStepUp()).challenge);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setPending(false);
    }
  };

  const answerWithPasskey = async () => {
    setPending(true);
    setError(null);
    try {
      await passkeysApi.stepUp(await getPasskey(await passkeysApi.stepUpOptions()));
      finish(true);
    } catch (e) {
      setError(passkeyFailure(e));
    } finally {
      setPending(false);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setPending(true);
    try {
      if (mode === 'recovery') await secondFactorApi.stepUp({ recoveryCode: code });
      else await secondFactorApi.stepUp({ code, ...(mode === 'email' && challenge ? { challenge } : {}) });
      finish(true);
    } catch (err) {
      setCode('');
      setError(messageOf(err));
    } finally {
      setPending(false);
    }
  };

  const needsMail = mode === 'email' && !challenge;
  return (
    <Modal
      open
      onOpenChange={(next) => !next && finish(false)}
      title="Confirma que eres tú"
      description="Esta acción está protegida: confírmala con tu segundo factor."
      size="sm"
    >
      {!mode ? (
        <Spinner />
      ) : mode === 'passkey' ? (
        <div className="grid gap-4">
          {error ? <Alert variant="error">{error}</Alert> : null}
          <p className="text-sm">Usa una de tus llaves de acceso: tu huella, tu cara, el PIN del dispositivo o una llave de seguridad.</p>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <Button type="button" onClick={() => void answerWithPasskey()} loading={pending} autoFocus>
              <KeyRound aria-hidden /> Usar mi llave de acceso
            </Button>
            {has.totp ? (
              <Button type="button" variant="link" size="none" onClick={() => (setError(null), setMode('totp'))}>
                Usar el código de la app
              </Button>
            ) : null}
          </div>
        </div>
      ) : needsMail ? (
        <div className="grid gap-4">
          {error ? <Alert variant="error">{error}</Alert> : null}
          <p className="text-sm">Te enviaremos un código por email para confirmar.</p>
          <div>
            <Button type="button" onClick={() => void sendMail()} loading={pending}>
              Enviarme un código
            </Button>
          </div>
        </div>
      ) : (
        <form onSubmit={(e) => void submit(e)} noValidate className="grid gap-4">
          {error ? <Alert variant="error">{error}</Alert> : null}
          <Field
            label={
              mode === 'recovery' ? 'Código de recuperación' : mode === 'email' ? 'Código del email' : 'Código de tu app de autenticación'
            }
          >
            <input
              value={code}
              onChange={(e) => setCode(mode === 'recovery' ? e.target.value : e.target.value.replace(/\D/g, '').slice(0, 6))}
              inputMode={mode === 'recovery' ? 'text' : 'numeric'}
              autoComplete="one-time-code"
              autoFocus
              className={cn(inputBase, 'font-mono')}
            />
          </Field>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <Button type="submit" loading={pending}>
              Confirmar
            </Button>
            {mode !== 'email' ? (
              <Button
                type="button"
                variant="link"
                size="none"
                onClick={() => (setCode(''), setMode(mode === 'totp' ? 'recovery' : 'totp'))}
              >
                {mode === 'totp' ? 'Usar un código de recuperación' : 'Usar el código de la app'}
              </Button>
            ) : null}
            {has.passkey ? (
              <Button type="button" variant="link" size="none" onClick={() => (setError(null), setMode('passkey'))}>
                Usar una llave de acceso
              </Button>
            ) : null}
          </div>
        </form>
      )}
    </Modal>
  );
}
