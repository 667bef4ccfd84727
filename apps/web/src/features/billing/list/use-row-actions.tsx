import { useState } from 'react';
import type { AppAbility } from '@divan/core';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { messageOf } from '@/lib/error-message';
import { toast } from '@/lib/toast';
import { useDeleteInvoice, type InvoiceSummary } from '../api/invoices-api';
import { downloadInvoicePdf } from '../api/support-api';
import { PayDialog } from '../components/pay-dialog';
import { mayAct } from '../components/use-billing-scope';
import type { RowActions } from './invoices-table';
import { useRowPayments } from '../payments/components/row-payment-dialogs';

/**
 * What a row of invoices offers (download, record a payment, charge the card, refund, delete a draft) and the dialogs those
 * open: the same on /billing and in the patient's «Facturación» tab.
 */
export function useRowActions(wid: string, ability: AppAbility) {
  const [paying, setPaying] = useState<InvoiceSummary | null>(null);
  const [deleting, setDeleting] = useState<InvoiceSummary | null>(null);
  const remove = useDeleteInvoice(wid);
  const card = useRowPayments(wid);

  const actions: RowActions = {
    canPay: (i) => i.status === 'issued' && i.kind === 'ordinary' && i.paymentStatus === 'pending' && mayAct(ability, 'update', i),
    canDelete: (i) => i.status === 'draft' && mayAct(ability, 'delete', i),
    onPay: setPaying,
    onDelete: setDeleting,
    onDownload: (i) => void downloadInvoicePdf(wid, i).catch((e: unknown) => toast.error(messageOf(e))),
    canCharge: (i) =>
      i.status === 'issued' &&
      i.kind === 'ordinary' &&
      i.paymentStatus === 'pending' &&
      i.sellerType === 'therapist' &&
      !!i.patient &&
      mayAct(ability, 'update', i),
    canRefund: (i) =>
      i.status === 'issued' &&
      i.kind === 'ordinary' &&
      i.paymentStatus === 'paid' &&
      i.paymentType === 'stripe_connect' &&
      mayAct(ability, 'update', i),
    onCharge: card.onCharge,
    onRefund: card.onRefund,
  };

  const dialogs = (
    <>
      <PayDialog wid={wid} invoice={paying} onClose={() => setPaying(null)} />
      {card.dialogs}
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(o) => (o ? undefined : setDeleting(null))}
        title="¿Eliminar el borrador?"
        description="Se borra el borrador y sus sesiones vuelven a quedar sin facturar. No se puede deshacer."
        confirmLabel="Eliminar borrador"
        onConfirm={async () => {
          await remove.mutateAsync(deleting!.id).catch((e: unknown) => {
            throw new Error(messageOf(e));
          });
          toast.success('Borrador eliminado');
        }}
      />
    </>
  );
  return { actions, dialogs };
}
