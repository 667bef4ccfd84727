import { useState } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field } from '@/components/ui/field';
import { Textarea } from '@/components/ui/input';

type Props = {
  number: string | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Voids it; a rejection shows in the dialog, which stays open with the reason typed. */
  onVoid: (reason: string) => Promise<unknown>;
};

/**
 * «Anular»: only for an invoice that should never have been issued (a duplicate, the wrong patient).
 * Amounts and data are corrected with «Rectificar» instead; the dialog says so.
 */
export function VoidDialog({ number, open, onOpenChange, onVoid }: Props) {
  const [reason, setReason] = useState('');
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(o) => {
        if (!o) setReason('');
        onOpenChange(o);
      }}
      title={`¿Anular la factura ${number ?? ''}?`}
      description="Solo si no debió emitirse (por ejemplo, está duplicada). Para corregir importes o datos, usa «Rectificar». La factura conserva su número, deja de contar en los totales y se registra su anulación en VERI*FACTU; no se puede deshacer."
      confirmLabel="Anular factura"
      canConfirm={reason.trim() !== ''}
      onConfirm={() => onVoid(reason.trim())}
    >
      <Field label="Motivo de la anulación" hint="Queda en el registro de la factura.">
        <Textarea value={reason} onChange={(e) => setReason(e.target.value)} rows={3} maxLength={500} />
      </Field>
    </ConfirmDialog>
  );
}
