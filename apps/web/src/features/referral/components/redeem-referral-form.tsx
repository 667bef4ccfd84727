import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { REFERRAL_FRIEND_DAYS, redeemReferralBody, type RedeemReferral, type Workspace } from '@divan/core';
import type { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { applyApiError } from '@/lib/form-errors';
import { useRedeemReferral } from '../api/referral-api';

type FormIn = z.input<typeof redeemReferralBody>;
type FormOut = z.output<typeof redeemReferralBody>;

/** Every refusal of a code is about the code: said under the field. */
const ON_THE_CODE = {
  referral_code_not_found: 'code',
  referral_self: 'code',
  referral_not_eligible: 'code',
  referral_already_used: 'code',
} as const;

/**
 * «¿Te ha invitado un colega?» for who signed up without the link: the colleague's code, for the
 * workspace's owner (the 30 more days are the workspace's trial).
 */
export function RedeemReferralForm({ workspace, onRedeemed }: { workspace: Workspace; onRedeemed: (result: RedeemReferral) => void }) {
  const redeem = useRedeemReferral(workspace.id);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<FormIn, unknown, FormOut>({ resolver: zodResolver(redeemReferralBody), defaultValues: { code: '' } });
  const { errors, isSubmitting } = form.formState;
  const error = errors.code?.message;
  const id = useId();

  const onSubmit = form.handleSubmit(async (body) => {
    setFormError(null);
    try {
      onRedeemed(await redeem.mutateAsync(body));
    } catch (error) {
      setFormError(applyApiError(error, form.setError, ON_THE_CODE, ['code']));
    }
  });

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Usar un código de invitación" className="grid gap-4">
      <p className="max-w-prose text-sm text-muted-foreground">
        Si un colega te ha pasado su código, escríbelo aquí: tu espacio «{workspace.name}» tendrá {REFERRAL_FRIEND_DAYS} días más de prueba
        gratis. Vale si el espacio nunca ha tenido un plan de Diván.
      </p>
      {formError ? <Alert variant="error">{formError}</Alert> : null}
      {/* Field's shape, with the button beside the input and the message under both (a long refusal reads on one line). */}
      <div className="grid max-w-xl gap-1.5">
        <Label htmlFor={id}>Código de invitación</Label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Input
            id={id}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            placeholder="Por ejemplo: K7M2QX9P"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-message` : undefined}
            className="font-mono uppercase tracking-widest placeholder:font-sans placeholder:normal-case placeholder:tracking-normal sm:w-56"
            {...form.register('code')}
          />
          <Button type="submit" loading={isSubmitting}>
            Usar código
          </Button>
        </div>
        {error ? (
          <p id={`${id}-message`} role="alert" className="text-[0.8125rem] font-medium text-destructive">
            {error}
          </p>
        ) : null}
      </div>
    </form>
  );
}
