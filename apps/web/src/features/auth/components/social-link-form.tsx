import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { AuthTokens, SocialProvider } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { inputBase } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import { isApiError } from '@/lib/http';
import { useAction } from '@/lib/use-action';
import { socialApi } from '../api/social-api';
import { PROVIDER_LABEL } from './provider-logo';

/** Codes that mean this link is spent: only starting again from the sign-in page helps. */
const deadLink = new Set(['challenge_expired', 'challenge_not_found', 'max_attempts', 'provider_state_invalid']);

type Props = {
  provider: SocialProvider;
  link: string;
  /** The existing account's email. */
  email: string;
  /** Signed in, or (an account with a second factor, issue 32) its second step to answer. */
  onSignedIn: (answer: (AuthTokens & { kind: 'signed_in' }) | SecondStepChallenge) => void;
};

/**
 * The provider's verified email belongs to an account that is not linked to it yet: its owner proves the
 * account with the six-digit code the server has just mailed to it, and the identity is linked.
 */
export type SecondStepChallenge = {
  kind: 'second_factor';
  challenge: string;
  expiresAt: string;
  method: 'email' | 'totp' | 'passkey';
  passkey?: boolean;
};

export function SocialLinkForm({ provider, link, email, onSignedIn }: Props) {
  const label = PROVIDER_LABEL[provider];
  const confirm = useAction((code: string) => socialApi.link(provider, { link, code }), { onSuccess: onSignedIn });
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [dead, setDead] = useState(false);

  const send = async (value: string) => {
    setFieldError(null);
    setFormError(null);
    if (!/^\d{6}$/.test(value)) return setFieldError('El código tiene 6 dígitos');
    try {
      await confirm.mutateAsync(value);
    } catch (error) {
      setCode('');
      if (isApiError(error) && error.code === 'invalid_code') return setFieldError(error.message);
      if (isApiError(error) && deadLink.has(error.code)) setDead(true);
      setFormError(isApiError(error) ? error.message : 'No hemos podido comprobar el código. Inténtalo de nuevo.');
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void send(code);
  };

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5">
      <p className="text-[0.9375rem] leading-relaxed text-muted-foreground">
        Ya tienes una cuenta con <strong className="font-semibold text-foreground [overflow-wrap:anywhere]">{email}</strong>. Para vincular{' '}
        {label} escribe el código que te hemos enviado por email.
      </p>
      {formError ? (
        <Alert variant="error">
          <p>{formError}</p>
          {dead ? (
            <Button asChild variant="outline" size="sm" className="mt-3">
              <Link to="/sign-in">Volver a iniciar sesión</Link>
            </Button>
          ) : null}
        </Alert>
      ) : null}
      <Field label="Código de verificación" error={fieldError ?? undefined}>
        <input
          name="code"
          value={code}
          onChange={(event) => {
            // Submitting on the sixth digit saves a click; pasting the whole code works the same way.
            const digits = event.target.value.replace(/\D/g, '').slice(0, 6);
            setCode(digits);
            if (digits.length === 6 && !confirm.isPending && !dead) void send(digits);
          }}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          autoFocus
          disabled={dead}
          placeholder="000000"
          className={cn(inputBase, 'h-14 text-center font-mono text-2xl tracking-[0.5em] placeholder:tracking-[0.5em]')}
        />
      </Field>
      <Button type="submit" size="lg" loading={confirm.isPending} disabled={dead}>
        Vincular y entrar
      </Button>
      <p className="text-sm text-muted-foreground">
        ¿No es tu cuenta?{' '}
        <Link to="/sign-in" className="font-medium text-primary hover:underline">
          Vuelve a iniciar sesión
        </Link>
      </p>
    </form>
  );
}
