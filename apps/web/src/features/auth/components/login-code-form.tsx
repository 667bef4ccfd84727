import { useEffect, useState } from 'react';
import { toast } from '@/lib/toast';
import { ArrowLeft } from 'lucide-react';
import { CHALLENGE_COOLDOWN_MS } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { inputBase } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import { applyApiError } from '@/lib/form-errors';
import { lazySchema, useLightForm } from '@/lib/use-light-form';
import { isApiError } from '@/lib/http';
import { useLogin } from '../api/auth-mutations';

const schema = lazySchema(() => import('../schemas').then((m) => m.codeForm));

/** Codes that mean this challenge is spent: only a new code helps. */
const deadChallenge = new Set(['challenge_expired', 'challenge_not_found', 'max_attempts']);

type Props = {
  email: string;
  challenge: string;
  sentAt: number;
  onResend: () => Promise<void>;
  onBack: () => void;
};

function useSecondsUntil(target: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (now >= target) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [now, target]);
  return Math.max(0, Math.ceil((target - now) / 1000));
}

/** Step 2 of sign-in: the six-digit code mailed to the user. */
export function LoginCodeForm({ email, challenge, sentAt, onResend, onBack }: Props) {
  const login = useLogin();
  const [formError, setFormError] = useState<string | null>(null);
  const [needsNewCode, setNeedsNewCode] = useState(false);
  const [resending, setResending] = useState(false);
  const waitSeconds = useSecondsUntil(sentAt + CHALLENGE_COOLDOWN_MS);
  const form = useLightForm({ schema, defaultValues: { code: '' } });

  const onSubmit = form.handleSubmit(async ({ code }) => {
    setFormError(null);
    try {
      await login.mutateAsync({ challenge, code });
      // The guest guard notices the session and moves on to the app.
    } catch (error) {
      if (isApiError(error) && deadChallenge.has(error.code)) setNeedsNewCode(true);
      form.resetField('code');
      setFormError(applyApiError(error, form.setError, { invalid_code: 'code' }, ['code']));
    }
  });

  const resend = async () => {
    setResending(true);
    setFormError(null);
    try {
      await onResend();
      setNeedsNewCode(false);
      form.reset({ code: '' });
      toast.success('Te hemos enviado un código nuevo.');
    } catch (error) {
      setFormError(isApiError(error) ? error.message : 'Error al reenviar el email');
    } finally {
      setResending(false);
    }
  };

  const codeField = form.register('code', {
    // Submitting on the sixth digit saves a click; pasting the whole code works the same way.
    onChange: (event) => {
      const digits = event.target.value.replace(/\D/g, '').slice(0, 6);
      if (digits !== event.target.value) form.setValue('code', digits);
      if (digits.length === 6 && !login.isPending) void onSubmit();
    },
  });

  return (
    <form onSubmit={(e) => void onSubmit(e)} onInput={schema.preload} noValidate className="grid gap-5">
      <p className="text-[0.9375rem] leading-relaxed text-muted-foreground">
        Hemos enviado un código de 6 dígitos a <strong className="font-semibold text-foreground">{email}</strong>. Escríbelo para entrar.
      </p>
      {formError ? <Alert variant="error">{formError}</Alert> : null}
      <Field label="Código de verificación" error={form.formState.errors.code?.message}>
        <input
          {...codeField}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          autoFocus
          placeholder="000000"
          className={cn(inputBase, 'h-14 text-center font-mono text-2xl tracking-[0.5em] placeholder:tracking-[0.5em]')}
        />
      </Field>
      <Button type="submit" size="lg" loading={login.isPending} disabled={needsNewCode}>
        Entrar
      </Button>
      <div className="flex flex-wrap items-center justify-between gap-3 text-sm">
        <Button type="button" variant="ghost" size="sm" onClick={onBack} className="-ml-3">
          <ArrowLeft aria-hidden /> Volver
        </Button>
        {waitSeconds > 0 && !needsNewCode ? (
          <span className="text-muted-foreground" aria-live="polite">
            Podrás pedir otro código en {waitSeconds} s
          </span>
        ) : (
          <Button type="button" variant="link" size="none" onClick={resend} loading={resending}>
            Reenviar código
          </Button>
        )}
      </div>
    </form>
  );
}
