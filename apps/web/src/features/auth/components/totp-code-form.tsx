import { useState, type FormEvent } from 'react';
import { ArrowLeft, KeyRound } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { inputBase } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import { isApiError } from '@/lib/http';
import { useLoginSecondFactor } from '../api/auth-mutations';

/** Codes that mean this sign-in is spent: only starting again helps. */
const deadChallenge = new Set(['challenge_expired', 'challenge_not_found', 'max_attempts']);

type Props = { challenge: string; onBack: () => void; onUsePasskey?: () => void };

/** Step 2 of sign-in for an account with an authenticator app (issue 32): the app's 6 digits, or a recovery code. */
export function TotpCodeForm({ challenge, onBack, onUsePasskey }: Props) {
  const login = useLoginSecondFactor();
  const [recovery, setRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [dead, setDead] = useState(false);

  const send = async (typed: string) => {
    if (!recovery && !/^\d{6}$/.test(typed)) return setError('El código tiene 6 dígitos');
    if (recovery && typed.replace(/[\s-]/g, '').length !== 10) return setError('El código de recuperación tiene 10 caracteres');
    setError(null);
    try {
      await login.mutateAsync(recovery ? { challenge, recoveryCode: typed } : { challenge, code: typed });
      // The guest guard notices the session and moves on to the app.
    } catch (err) {
      if (isApiError(err) && deadChallenge.has(err.code)) setDead(true);
      setValue('');
      setError(isApiError(err) ? err.message : 'No se ha podido iniciar sesión. Inténtalo de nuevo.');
    }
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void send(value);
  };

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5">
      <p className="text-[0.9375rem] leading-relaxed text-muted-foreground">
        {recovery
          ? 'Escribe uno de tus códigos de recuperación. Cada código sirve una sola vez.'
          : 'Abre tu app de autenticación y escribe el código de 6 dígitos que te muestra.'}
      </p>
      {error ? <Alert variant="error">{error}</Alert> : null}
      <Field label={recovery ? 'Código de recuperación' : 'Código de la app'}>
        <input
          key={recovery ? 'recovery' : 'totp'}
          value={value}
          onChange={(e) => {
            if (recovery) return setValue(e.target.value.slice(0, 12));
            const digits = e.target.value.replace(/\D/g, '').slice(0, 6);
            setValue(digits);
            // Submitting on the sixth digit saves a click, as with the mailed code.
            if (digits.length === 6 && !login.isPending) void send(digits);
          }}
          inputMode={recovery ? 'text' : 'numeric'}
          autoComplete="one-time-code"
          maxLength={recovery ? 12 : 6}
          autoFocus
          placeholder={recovery ? 'abcde-12345' : '000000'}
          className={cn(
            inputBase,
            recovery
              ? 'h-14 text-center font-mono text-xl'
              : 'h-14 text-center font-mono text-2xl tracking-[0.5em] placeholder:tracking-[0.5em]',
          )}
        />
      </Field>
      <Button type="submit" size="lg" loading={login.isPending} disabled={dead}>
        Entrar
      </Button>
      <div className="flex flex-wrap items-center justify-between gap-3 text-sm">
        <Button type="button" variant="ghost" size="sm" onClick={onBack} className="-ml-3">
          <ArrowLeft aria-hidden /> Volver
        </Button>
        <Button
          type="button"
          variant="link"
          size="none"
          onClick={() => {
            setRecovery(!recovery);
            setValue('');
            setError(null);
          }}
        >
          {recovery ? 'Usar el código de la app' : 'Usar un código de recuperación'}
        </Button>
      </div>
      {onUsePasskey ? (
        <Button type="button" variant="outline" onClick={onUsePasskey}>
          <KeyRound aria-hidden /> Usar una llave de acceso
        </Button>
      ) : null}
    </form>
  );
}
