import { useEffect, useState, type FormEvent } from 'react';
import type { TotpEnrolment as Enrolment } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { inputBase } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { messageOf } from '@/lib/error-message';
import { secondFactorApi } from '../api/second-factor-api';
import { RecoveryCodesList } from './recovery-codes';

type Props = {
  /** The app is active: the recovery codes are on screen, and `onFinished` closes them. */
  onEnabled?: () => void;
  onFinished: () => void;
};

/**
 * Setting up an authenticator app (issue 32): the QR and the key to type by hand, one code from the app to confirm,
 * then the ten recovery codes, shown once.
 */
export function TotpEnrolment({ onEnabled, onFinished }: Props) {
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);

  useEffect(() => {
    let live = true;
    secondFactorApi.startTotp().then(
      (e) => live && setEnrolment(e),
      (e: unknown) => live && setLoadError(messageOf(e)),
    );
    return () => {
      live = false;
    };
  }, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!/^\d{6}$/.test(code)) return setError('El código tiene 6 dígitos');
    setError(null);
    setPending(true);
    try {
      const { recoveryCodes } = await secondFactorApi.confirmTotp(code);
      setRecoveryCodes(recoveryCodes);
      onEnabled?.();
    } catch (err) {
      setCode('');
      setError(messageOf(err));
    } finally {
      setPending(false);
    }
  };

  if (recoveryCodes)
    return (
      <div className="grid gap-5">
        <p className="font-medium">Tu app de autenticación está activada.</p>
        <RecoveryCodesList codes={recoveryCodes} />
        <div>
          <Button type="button" onClick={onFinished}>
            He guardado mis códigos
          </Button>
        </div>
      </div>
    );
  if (loadError) return <Alert variant="error">{loadError}</Alert>;
  if (!enrolment) return <Spinner label="Preparando tu código QR" />;

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="grid gap-5">
      <ol className="grid list-decimal gap-1 pl-5 text-sm text-muted-foreground">
        <li>Abre tu app de autenticación (Google Authenticator, Microsoft Authenticator, 1Password…).</li>
        <li>Escanea el código QR o escribe la clave a mano.</li>
        <li>Escribe el código de 6 dígitos que te muestra la app.</li>
      </ol>
      <div className="flex flex-wrap items-center gap-5">
        <img
          src={enrolment.qrDataUrl}
          alt="Código QR para tu app de autenticación"
          width={180}
          height={180}
          className="rounded-md border"
        />
        <div className="grid min-w-0 gap-1">
          <span className="text-sm text-muted-foreground">Clave para escribir a mano</span>
          <code data-testid="totp-secret" className="break-all font-mono text-sm font-semibold">
            {enrolment.secret.replace(/(.{4})/g, '$1 ').trim()}
          </code>
        </div>
      </div>
      {error ? <Alert variant="error">{error}</Alert> : null}
      <Field label="Código de la app">
        <input
          value={code}
          onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          placeholder="000000"
          className={cn(inputBase, 'h-12 max-w-48 text-center font-mono text-xl tracking-[0.4em]')}
        />
      </Field>
      <div>
        <Button type="submit" loading={pending}>
          Activar
        </Button>
      </div>
    </form>
  );
}
