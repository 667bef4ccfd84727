import { useState } from 'react';
import { useLocation } from 'react-router';
import { CreditCard, ExternalLink } from 'lucide-react';
import { PAYMENT_ACCOUNT_STATUS, type PaymentAccount, type PaymentAccountStatus } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { LoadError } from '@/components/ui/states';
import { cn } from '@/lib/cn';
import { messageOf } from '@/lib/error-message';
import { formatDate } from '@/lib/format';
import { onboardingUrl, usePaymentAccount, type AccountHolder } from '../api/payments-api';
import { TestModeBadge } from './test-mode';

/** What the return page from Stripe leaves in the location's state for this card to say. */
export type OnboardingReturn = { stripeOnboarding: PaymentAccountStatus };

const tones: Record<PaymentAccountStatus, string> = {
  not_connected: 'bg-muted text-muted-foreground ring-border',
  pending: 'bg-warning-bg text-warning-fg ring-warning-fg/20',
  restricted: 'bg-warning-bg text-warning-fg ring-warning-fg/20',
  active: 'bg-success/10 text-[#1f5c39] ring-success/25 dark:text-success',
};

export function AccountStatusBadge({ status }: { status: PaymentAccountStatus }) {
  return (
    <span
      className={cn(
        'inline-flex h-6 shrink-0 items-center whitespace-nowrap rounded-full px-2.5 text-xs font-medium ring-1 ring-inset',
        tones[status],
      )}
      data-testid="account-status"
    >
      {PAYMENT_ACCOUNT_STATUS.labels[status]}
    </span>
  );
}

/** After onboarding: what Stripe answered, in a sentence. */
export const returnMessage: Record<PaymentAccountStatus, string> = {
  active: 'Cuenta de Stripe conectada: ya puedes cobrar con tarjeta.',
  restricted: 'Stripe ha recibido los datos y los está revisando. Te avisará por email si necesita algo más.',
  pending: 'Aún faltan datos en Stripe: pulsa «Completar datos» para terminar.',
  not_connected: 'La cuenta no llegó a conectarse. Vuelve a intentarlo.',
};

const explain: Record<PaymentAccountStatus, string> = {
  not_connected:
    'Conecta una cuenta de Stripe para cobrar las facturas con la tarjeta que guarde el paciente, o enviarle un enlace de pago. El dinero llega directamente a la cuenta bancaria que indiques en Stripe.',
  pending: 'La cuenta está creada, pero Stripe necesita más datos (identidad, cuenta bancaria) antes de poder cobrar.',
  restricted: 'Stripe está revisando los datos o necesita alguno más. Mientras tanto no se puede cobrar con tarjeta.',
  active:
    'Puedes cobrar con tarjeta y enviar enlaces de pago. Las transferencias a tu banco y los recibos se gestionan en el panel de Stripe.',
};

type Props = {
  holder: AccountHolder;
  /** May connect and complete the account (the workspace's needs workspace_billing update). */
  canEdit: boolean;
  /** Says whose account it is: «tu cuenta» or the workspace's name. */
  description?: string;
};

/** «Cobros con tarjeta (Stripe)»: the account's state and the way to connect it, complete it or open Stripe's dashboard. */
export function PaymentAccountCard({ holder, canEdit, description }: Props) {
  const account = usePaymentAccount(holder);
  const back = (useLocation().state as Partial<OnboardingReturn> | null)?.stripeOnboarding;

  return (
    <Card data-testid="payment-account">
      <CardHeader>
        {/* The badges beside the title, or under it on a phone; the description always full width. */}
        <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-2">
          <CardTitle className="flex items-center gap-2">
            <CreditCard className="size-4 text-primary" aria-hidden />
            Cobros con tarjeta (Stripe)
          </CardTitle>
          <div className="flex flex-wrap gap-1.5">
            {account.data?.mode === 'test' ? <TestModeBadge /> : null}
            {account.data ? <AccountStatusBadge status={account.data.status} /> : null}
          </div>
        </div>
        {description ? <CardDescription>{description}</CardDescription> : null}
      </CardHeader>
      <CardContent className="grid gap-4">
        {account.isError && !account.data ? (
          <LoadError error={account.error} onRetry={() => void account.refetch()} what="la cuenta de cobros" />
        ) : null}
        {!account.data && !account.isError ? <Spinner label="Cargando la cuenta de cobros" /> : null}
        {account.data ? (
          <>
            {back ? <Alert variant={back === 'active' ? 'success' : 'info'}>{returnMessage[back]}</Alert> : null}
            <AccountBody holder={holder} account={account.data} canEdit={canEdit} />
          </>
        ) : null}
      </CardContent>
    </Card>
  );
}

function AccountBody({ holder, account, canEdit }: { holder: AccountHolder; account: PaymentAccount; canEdit: boolean }) {
  const [going, setGoing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { status } = account;
  const dashboard = `/settings/billing/stripe-dashboard${holder.kind === 'workspace' ? `?workspace=${holder.workspaceId}` : ''}`;

  // Stripe's pages replace this one; it comes back to settings › billing › stripe-onboarding.
  const onboard = async () => {
    setGoing(true);
    setError(null);
    try {
      window.location.assign(await onboardingUrl(holder, status === 'not_connected'));
    } catch (e) {
      setError(messageOf(e));
      setGoing(false);
    }
  };

  return (
    <>
      <p className="text-sm text-muted-foreground">{explain[status]}</p>
      {status !== 'not_connected' ? (
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-3">
          <Fact label="Cobros con tarjeta" on={account.chargesEnabled} yes="Activados" no="Aún no" />
          <Fact label="Transferencias a tu banco" on={account.payoutsEnabled} yes="Activadas" no="Aún no" />
          <div className="grid gap-0.5">
            <dt className="text-[0.8125rem] text-muted-foreground">Conectada el</dt>
            <dd>{formatDate(account.connectedAt) || '—'}</dd>
          </div>
        </dl>
      ) : null}
      {account.mode === 'test' ? (
        <p className="rounded-lg bg-warning-bg px-3 py-2 text-[0.8125rem] text-warning-fg">
          {account.provider === 'sandbox'
            ? 'Modo de prueba: este servidor no tiene claves de Stripe y usa el entorno de pruebas de Diván. No se mueve dinero real; las tarjetas de prueba (4242 4242 4242 4242) se aceptan.'
            : 'Modo de prueba de Stripe: no se mueve dinero real; solo se aceptan tarjetas de prueba.'}
        </p>
      ) : null}
      {error ? <Alert variant="error">{error}</Alert> : null}
      <div className="flex flex-wrap gap-2">
        {canEdit && status === 'not_connected' ? (
          <Button loading={going} onClick={() => void onboard()}>
            Conectar con Stripe
          </Button>
        ) : null}
        {canEdit && (status === 'pending' || status === 'restricted') ? (
          <Button variant={status === 'pending' ? 'default' : 'outline'} loading={going} onClick={() => void onboard()}>
            Completar datos
          </Button>
        ) : null}
        {/* Stripe opens the Express dashboard only once the details are in. */}
        {account.detailsSubmitted || status === 'active' ? (
          <Button asChild variant="outline">
            <a href={dashboard} target="_blank" rel="noopener">
              Abrir panel de Stripe <ExternalLink aria-hidden />
              <span className="sr-only">(se abre en una pestaña nueva)</span>
            </a>
          </Button>
        ) : null}
      </div>
      {!canEdit && status !== 'active' ? (
        <p className="text-[0.8125rem] text-muted-foreground">
          Solo quien puede editar la facturación del espacio puede conectar o completar la cuenta.
        </p>
      ) : null}
    </>
  );
}

function Fact({ label, on, yes, no }: { label: string; on: boolean; yes: string; no: string }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-[0.8125rem] text-muted-foreground">{label}</dt>
      <dd className={on ? 'font-medium' : 'text-muted-foreground'}>{on ? yes : no}</dd>
    </div>
  );
}
