import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { CreatePasswordCode } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { messageOf } from '@/lib/error-message';
import { applyApiError } from '@/lib/form-errors';
import { isApiError } from '@/lib/http';
import { lazyZodResolver } from '@/lib/lazy-resolver';
import { toast } from '@/lib/toast';
import { sendCreatePasswordCode, useCreatePassword } from '../api/identities-api';
import type { CreatePasswordForm } from '../schemas';

const { resolver, preload } = lazyZodResolver(() => import('../schemas').then((m) => m.createPasswordForm));
const empty: CreatePasswordForm = { code: '', newPassword: '', repeatPassword: '' };
/** Codes that mean this challenge is spent: only a new code helps. */
const deadChallenge = new Set(['challenge_expired', 'challenge_not_found', 'max_attempts']);

/**
 * Ajustes › Seguridad for an account made with Google or Apple (it has no password): «Crear contraseña» mails a code
 * to the account's email, and the code with the new password (twice) sets it; then the page offers to change it.
 */
export function CreatePasswordCard() {
  const create = useCreatePassword();
  const [sent, setSent] = useState<CreatePasswordCode | null>(null);
  const [sending, setSending] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<CreatePasswordForm, unknown, CreatePasswordForm>({ resolver, defaultValues: empty });
  const { errors, isSubmitting } = form.formState;

  const send = async () => {
    setSending(true);
    setFormError(null);
    try {
      const answer = await sendCreatePasswordCode();
      form.reset(empty);
      if (sent) toast.success('Te hemos enviado un código nuevo.');
      setSent(answer);
    } catch (e) {
      setFormError(messageOf(e));
    } finally {
      setSending(false);
    }
  };

  const onSubmit = form.handleSubmit(async ({ code, newPassword }) => {
    if (!sent) return;
    setFormError(null);
    try {
      await create.mutateAsync({ challenge: sent.challenge, code, newPassword });
      toast.success('Contraseña creada: ya puedes entrar también con tu email.');
    } catch (error) {
      form.resetField('code');
      if (isApiError(error) && deadChallenge.has(error.code)) setSent((s) => s && { ...s, challenge: '' });
      setFormError(
        applyApiError(error, form.setError, { invalid_code: 'code', password_conditions: 'newPassword' }, ['code', 'newPassword']),
      );
    }
  });

  if (!sent)
    return (
      <Card>
        <CardHeader>
          <CardTitle>Contraseña</CardTitle>
          <CardDescription>
            Tu cuenta no tiene contraseña: entras con las cuentas vinculadas de abajo. Crea una para entrar también con tu email.
          </CardDescription>
        </CardHeader>
        {formError ? (
          <CardContent className="max-w-md">
            <Alert variant="error">{formError}</Alert>
          </CardContent>
        ) : null}
        <CardFooter>
          <Button type="button" loading={sending} onClick={() => void send()}>
            Crear contraseña
          </Button>
        </CardFooter>
      </Card>
    );

  const spent = sent.challenge === '';
  return (
    <form onSubmit={(e) => void onSubmit(e)} onInput={preload} noValidate>
      <Card>
        <CardHeader>
          <CardTitle>Crear contraseña</CardTitle>
          <CardDescription>
            Hemos enviado un código de 6 dígitos a <strong className="font-semibold text-foreground">{sent.email}</strong>. Escríbelo con tu
            nueva contraseña: al menos 8 caracteres que combinen dos tipos (mayúsculas, minúsculas, números o símbolos).
          </CardDescription>
        </CardHeader>
        <CardContent className="grid max-w-md gap-5">
          {formError ? <Alert variant="error">{formError}</Alert> : null}
          <Field label="Código de verificación" error={errors.code?.message}>
            <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} disabled={spent} {...form.register('code')} />
          </Field>
          <Field label="Nueva contraseña" error={errors.newPassword?.message}>
            <PasswordInput autoComplete="new-password" disabled={spent} {...form.register('newPassword')} />
          </Field>
          <Field label="Repite la nueva contraseña" error={errors.repeatPassword?.message}>
            <PasswordInput autoComplete="new-password" disabled={spent} {...form.register('repeatPassword')} />
          </Field>
        </CardContent>
        <CardFooter className="flex flex-wrap gap-3">
          <Button type="submit" loading={isSubmitting} disabled={spent}>
            Guardar contraseña
          </Button>
          <Button type="button" variant="outline" loading={sending} onClick={() => void send()}>
            Enviar otro código
          </Button>
          <Button
            type="button"
            variant="ghost"
            onClick={() => {
              setSent(null);
              setFormError(null);
            }}
          >
            Cancelar
          </Button>
        </CardFooter>
      </Card>
    </form>
  );
}
