import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Copy, CreditCard, Mail, Undo2 } from 'lucide-react';
import { chargeBlockMessage, errorMessage, isErrorCode, type Invoice, type InvoicePayments } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Spinner } from '@/components/ui/spinner';
import { LoadError } from '@/components/ui/states';
import { messageOf } from '@/lib/error-message';
import { formatCurrency } from '@/lib/format';
import { toast } from '@/lib/toast';
import { invoiceKeys } from '../../api/keys';
import {
  useChargeInvoice,
  useInvoicePayLink,
  useInvoicePayments,
  useRefundInvoice,
  type PaymentLink,
  type RefundAnswer,
} from '../api/payments-api';
import { copyLink } from '../utils/copy-text';
import { problemOf } from '../utils/problem';
import { LinkMade } from './patient-card-section';
import { PaymentHistory } from './payment-history';
import { RefundDialog } from './refund-dialog';
import { TestModeBadge } from './test-mode';

/** How long the screen waits for Stripe's confirmation (the webhook) after a charge, reading every 1.5 s. */
const POLL_MS = 1_500;
const POLL_FOR_MS = 20_000;

type Props = { wid: string; invoice: Invoice; canUpdate: boolean };

/**
 * «Cobro»: charge the patient's saved card, mail (or copy) a pay link, refund a card payment, and
 * the attempts and refunds so far. The invoice is marked paid by Stripe's confirmation (the webhook),
 * so after a charge the screen reads the invoice again for a few seconds until it says so.
 */
export function InvoicePaymentPanel({ wid, invoice, canUpdate }: Props) {
  const payments = useInvoicePayments(wid, invoice.id);
  const data = payments.data;
  const pending = invoice.status === 'issued' && invoice.paymentStatus === 'pending';
  // A voided invoice, or one paid by hand, shows the panel only when card payments happened.
  const history = !!data && (data.attempts.length > 0 || data.refunds.length > 0);
  if (invoice.kind !== 'ordinary' || (!pending && invoice.paymentStatus !== 'paid' && !history)) return null;

  return (
    <Card aria-labelledby="payment-panel-title" data-testid="payment-panel">
      <CardHeader className="grid-cols-[minmax(0,1fr)_auto] items-center gap-3">
        <CardTitle id="payment-panel-title" className="flex items-center gap-2">
          <CreditCard className="size-4 text-primary" aria-hidden />
          Cobro
        </CardTitle>
        {data?.mode === 'test' ? <TestModeBadge /> : <span />}
      </CardHeader>
      <CardContent className="grid gap-5">
        {payments.isError && !data ? (
          <LoadError error={payments.error} onRetry={() => void payments.refetch()} what="los cobros de la factura" />
        ) : null}
        {!data && !payments.isError ? <Spinner label="Cargando los cobros" /> : null}
        {data ? <Panel wid={wid} invoice={invoice} data={data} canUpdate={canUpdate} pending={pending} /> : null}
      </CardContent>
    </Card>
  );
}

const sentence = (code: string) => (isErrorCode(code) ? errorMessage(code) : code);

function Panel({ wid, invoice, data, canUpdate, pending }: Props & { data: InvoicePayments; pending: boolean }) {
  const qc = useQueryClient();
  const charge = useChargeInvoice(wid);
  const payLink = useInvoicePayLink(wid);
  const refund = useRefundInvoice(wid);
  const [confirming, setConfirming] = useState(false);
  const [refunding, setRefunding] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [waitUntil, setWaitUntil] = useState<number | null>(null);
  const [link, setLink] = useState<PaymentLink | null>(null);
  const [refunded, setRefunded] = useState<RefundAnswer | null>(null);
  const chargeReason = useId();
  const linkReason = useId();
  const amount = formatCurrency(invoice.totalCents);

  // After a charge: read the invoice (and its payments) again until Stripe's confirmation marks it paid.
  const waiting = waitUntil !== null && pending;
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => {
      if (Date.now() > waitUntil) {
        setWaitUntil(null);
        setNotice('Stripe aún no ha confirmado el cobro: la factura se marcará como pagada en cuanto llegue la confirmación.');
        return;
      }
      void qc.invalidateQueries({ queryKey: invoiceKeys.detail(wid, invoice.id) });
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [waiting, waitUntil, qc, wid, invoice.id]);
  // Paid while waiting: say so once, and refresh the lists (totals, «Pagada»).
  useEffect(() => {
    if (waitUntil === null || pending) return;
    setWaitUntil(null);
    setNotice('Stripe ha confirmado el cobro: la factura está pagada.');
    void qc.invalidateQueries({ queryKey: invoiceKeys.lists(wid) });
  }, [pending, waitUntil, qc, wid]);

  const sendLink = async (send: boolean) => {
    try {
      const made = await payLink.mutateAsync({ id: invoice.id, send });
      setLink(made);
      if (!send) await copyLink(made.url, 'Enlace de pago copiado');
    } catch (e) {
      toast.error(problemOf(e));
    }
  };

  const lastAttempt = data.attempts[0];
  const failedLast = lastAttempt && lastAttempt.status === 'failed' && !waiting;
  const canRefund = canUpdate && invoice.status === 'issued' && data.refundableCents > 0;

  return (
    <>
      {data.chargedCents > 0 ? (
        <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-3">
          <Amount label="Cobrado con tarjeta" cents={data.chargedCents} />
          <Amount label="Devuelto" cents={data.refundedCents} />
          <Amount label="Queda por devolver" cents={data.refundableCents} />
        </dl>
      ) : null}

      {notice ? (
        <Alert variant={invoice.paymentStatus === 'paid' ? 'success' : 'info'} data-testid="charge-notice">
          {notice}
        </Alert>
      ) : null}
      {waiting ? <Spinner label="Esperando la confirmación de Stripe" className="text-sm" /> : null}

      {pending && canUpdate ? (
        <div className="grid gap-4">
          <div className="grid gap-2 sm:grid-cols-[auto_minmax(0,1fr)] sm:items-center sm:gap-4">
            <Button
              disabled={!!data.chargeBlock || waiting}
              aria-describedby={data.chargeBlock ? chargeReason : undefined}
              loading={charge.isPending}
              onClick={() => setConfirming(true)}
            >
              <CreditCard aria-hidden /> Cobrar con tarjeta
            </Button>
            {data.chargeBlock ? (
              <p id={chargeReason} className="text-[0.8125rem] text-muted-foreground" data-testid="charge-block">
                {chargeBlockMessage(data.chargeBlock)}
              </p>
            ) : (
              <p className="text-[0.8125rem] text-muted-foreground">Con la tarjeta que guardó el paciente, sin que tenga que hacer nada.</p>
            )}
          </div>
          <div className="grid gap-2 sm:grid-cols-[auto_minmax(0,1fr)] sm:items-center sm:gap-4">
            <div className="flex flex-wrap gap-2">
              <Button
                variant="outline"
                disabled={!!data.payLinkBlock || !data.payLinkTo}
                aria-describedby={data.payLinkBlock || !data.payLinkTo ? linkReason : undefined}
                loading={payLink.isPending && payLink.variables?.send === true}
                onClick={() => void sendLink(true)}
              >
                <Mail aria-hidden /> Enviar enlace de pago
              </Button>
              <Button
                variant="outline"
                disabled={!!data.payLinkBlock}
                aria-describedby={data.payLinkBlock ? linkReason : undefined}
                loading={payLink.isPending && payLink.variables?.send === false}
                onClick={() => void sendLink(false)}
              >
                <Copy aria-hidden /> Copiar enlace
              </Button>
            </div>
            {data.payLinkBlock ? (
              // The same reason as the charge's (too low an amount) is not said twice.
              data.payLinkBlock !== data.chargeBlock ? (
                <p id={linkReason} className="text-[0.8125rem] text-muted-foreground">
                  {sentence(data.payLinkBlock)}
                </p>
              ) : (
                <span id={linkReason} className="sr-only">
                  {sentence(data.payLinkBlock)}
                </span>
              )
            ) : data.payLinkTo ? (
              <p className="text-[0.8125rem] text-muted-foreground">
                Se envía a {data.payLinkTo}: paga con tarjeta en una página de Stripe.
              </p>
            ) : (
              <p id={linkReason} className="text-[0.8125rem] text-muted-foreground">
                La factura no tiene email de destino: copia el enlace y envíaselo tú.
              </p>
            )}
          </div>
          {link ? <LinkMade link={link} /> : null}
        </div>
      ) : null}

      {failedLast && pending ? <Alert variant="error">{lastAttempt.error ?? errorMessage('card_declined')}</Alert> : null}

      {refunded ? (
        <Alert variant="success" data-testid="refund-done">
          Devolución de {formatCurrency(refunded.amountCents)} {refunded.status === 'succeeded' ? 'hecha' : 'en curso'}.
          {refunded.rectifying ? (
            <>
              {' '}
              Se ha emitido la factura rectificativa{' '}
              <Link to={`/billing/editor/${refunded.rectifying.id}`}>{refunded.rectifying.number ?? 'nueva'}</Link>.
            </>
          ) : (
            ' No se pudo emitir la factura rectificativa ahora (revisa tus datos de facturación): emítela con «Rectificar».'
          )}
        </Alert>
      ) : null}

      {canRefund ? (
        <div className="flex flex-wrap items-center gap-3">
          <Button variant="outline" className="text-destructive" onClick={() => setRefunding(true)}>
            <Undo2 aria-hidden /> Devolver
          </Button>
          <p className="text-[0.8125rem] text-muted-foreground">Todo o una parte, a la misma tarjeta, con su factura rectificativa.</p>
        </div>
      ) : null}

      <PaymentHistory attempts={data.attempts} refunds={data.refunds} />

      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`¿Cobrar ${amount} con la tarjeta guardada del paciente?`}
        description={`Se cobra ${amount}${invoice.patient ? ` a ${invoice.patient.name}` : ''} en la tarjeta que guardó en Stripe. La factura se marcará como pagada cuando Stripe confirme el cobro.`}
        confirmLabel={`Cobrar ${amount}`}
        destructive={false}
        onConfirm={async () => {
          setNotice(null);
          try {
            const answer = await charge.mutateAsync(invoice.id);
            setNotice(answer.message);
            if (answer.status === 'processing' || answer.status === 'succeeded') setWaitUntil(Date.now() + POLL_FOR_MS);
          } catch (e) {
            throw new Error(messageOf(e));
          }
        }}
      />
      <RefundDialog
        open={refunding}
        onOpenChange={setRefunding}
        number={invoice.number}
        chargedCents={data.chargedCents}
        refundableCents={data.refundableCents}
        onRefund={async (r) => {
          const answer = await refund.mutateAsync({ id: invoice.id, ...r });
          // What the charge said no longer holds: the refund says what happened now.
          setNotice(null);
          setRefunded(answer);
          toast.success(
            answer.rectifying?.number ? `Devolución hecha: factura rectificativa ${answer.rectifying.number}` : 'Devolución hecha',
          );
        }}
      />
    </>
  );
}

function Amount({ label, cents }: { label: string; cents: number }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-[0.8125rem] text-muted-foreground">{label}</dt>
      <dd className="font-medium tabular-nums">{formatCurrency(cents)}</dd>
    </div>
  );
}
