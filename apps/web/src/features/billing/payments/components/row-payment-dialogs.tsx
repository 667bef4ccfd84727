import { useState } from 'react';
import { chargeBlockMessage } from '@divan/core';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { formatCurrency } from '@/lib/format';
import { messageOf } from '@/lib/error-message';
import { toast } from '@/lib/toast';
import type { InvoiceSummary } from '../../api/invoices-api';
import { useChargeInvoice, useInvoicePayments, useRefundInvoice } from '../api/payments-api';
import { RefundDialog } from './refund-dialog';

/**
 * «Cobrar con tarjeta…» and «Devolver…» from a row of invoices (the list, the patient's tab): the
 * invoice's payments are read when the dialog opens, so a blocked charge says why before anything.
 */
export function useRowPayments(wid: string) {
  const [charging, setCharging] = useState<InvoiceSummary | null>(null);
  const [refunding, setRefunding] = useState<InvoiceSummary | null>(null);
  const dialogs = (
    <>
      {charging ? <ChargeDialog wid={wid} invoice={charging} onClose={() => setCharging(null)} /> : null}
      {refunding ? <RowRefund wid={wid} invoice={refunding} onClose={() => setRefunding(null)} /> : null}
    </>
  );
  return { onCharge: setCharging, onRefund: setRefunding, dialogs };
}

function ChargeDialog({ wid, invoice, onClose }: { wid: string; invoice: InvoiceSummary; onClose: () => void }) {
  const payments = useInvoicePayments(wid, invoice.id);
  const charge = useChargeInvoice(wid);
  const amount = formatCurrency(invoice.totalCents);
  const block = payments.data?.chargeBlock ?? null;
  return (
    <ConfirmDialog
      open
      onOpenChange={(o) => (o ? undefined : onClose())}
      title={`¿Cobrar ${amount} con la tarjeta guardada?`}
      description={
        payments.isPending
          ? 'Comprobando la tarjeta del paciente…'
          : block
            ? chargeBlockMessage(block)
            : `Se cobra ${amount}${invoice.patient ? ` a ${invoice.patient.name}` : ''} en la tarjeta que guardó en Stripe. La factura ${invoice.number ?? ''} se marcará como pagada cuando Stripe confirme el cobro.`
      }
      confirmLabel={`Cobrar ${amount}`}
      destructive={false}
      canConfirm={!payments.isPending && !block}
      onConfirm={async () => {
        try {
          toast.success((await charge.mutateAsync(invoice.id)).message);
        } catch (e) {
          throw new Error(messageOf(e));
        }
      }}
    />
  );
}

function RowRefund({ wid, invoice, onClose }: { wid: string; invoice: InvoiceSummary; onClose: () => void }) {
  const payments = useInvoicePayments(wid, invoice.id);
  const refund = useRefundInvoice(wid);
  if (!payments.data) return null;
  return (
    <RefundDialog
      open
      onOpenChange={(o) => (o ? undefined : onClose())}
      number={invoice.number}
      chargedCents={payments.data.chargedCents}
      refundableCents={payments.data.refundableCents}
      onRefund={async (r) => {
        const answer = await refund.mutateAsync({ id: invoice.id, ...r });
        toast.success(
          answer.rectifying?.number ? `Devolución hecha: factura rectificativa ${answer.rectifying.number}` : 'Devolución hecha',
        );
      }}
    />
  );
}
