import { useState } from 'react';
import { isIsoDay, PAYMENT_TYPE, type PaymentType } from '@divan/core';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { DialogForm } from '@/components/ui/form-dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { messageOf } from '@/lib/error-message';
import { dmyToIsoDate, formatCurrency, formatDate } from '@/lib/format';
import { toast } from '@/lib/toast';
import { usePayInvoice } from '../api/invoices-api';

/** By hand: online card payments (stripe_connect) come from the payment provider, not from this form. */
const TYPES = PAYMENT_TYPE.values.filter((t) => t !== 'stripe_connect').map((value) => ({ value, label: PAYMENT_TYPE.labels[value] }));

export type Payable = { id: string; number: string | null; totalCents: number };

/** «Registrar pago»: how and when the invoice was paid (today unless told otherwise). */
export function PayDialog({ wid, invoice, onClose }: { wid: string; invoice: Payable | null; onClose: () => void }) {
  return (
    <Dialog open={!!invoice} onOpenChange={(open) => (open ? undefined : onClose())}>
      {invoice ? (
        <DialogContent className="max-w-md">
          <PayForm key={invoice.id} wid={wid} invoice={invoice} onClose={onClose} />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

function PayForm({ wid, invoice, onClose }: { wid: string; invoice: Payable; onClose: () => void }) {
  const pay = usePayInvoice(wid);
  const [type, setType] = useState<PaymentType | ''>('');
  const [day, setDay] = useState(() => formatDate(new Date()));
  const [submitted, setSubmitted] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const paidOn = dmyToIsoDate(day);
  const typeError = submitted && !type ? 'Elige cómo se ha pagado.' : undefined;
  const dayError = submitted && !isIsoDay(paidOn) ? 'Escribe la fecha como DD/MM/AAAA.' : undefined;

  const submit = async () => {
    setSubmitted(true);
    if (!type || !isIsoDay(paidOn)) return;
    setError(null);
    try {
      await pay.mutateAsync({ id: invoice.id, paymentType: type, paidOn });
      toast.success(`Pago registrado: ${invoice.number ?? 'factura'} · ${PAYMENT_TYPE.labels[type].toLowerCase()}`);
      onClose();
    } catch (e) {
      setError(messageOf(e));
    }
  };

  return (
    <DialogForm
      title="Registrar pago"
      description={`Factura ${invoice.number ?? ''} · ${formatCurrency(invoice.totalCents)}`}
      error={error}
      pending={pay.isPending}
      confirmLabel="Registrar pago"
      onConfirm={submit}
      onCancel={onClose}
    >
      <Field label="Tipo de pago" error={typeError}>
        <NativeSelect options={TYPES} placeholder="Elige…" value={type} onChange={(e) => setType(e.target.value as PaymentType | '')} />
      </Field>
      <Field label="Fecha de pago" error={dayError} hint="Formato DD/MM/AAAA">
        <Input inputMode="numeric" placeholder="DD/MM/AAAA" value={day} onChange={(e) => setDay(e.target.value)} />
      </Field>
    </DialogForm>
  );
}
