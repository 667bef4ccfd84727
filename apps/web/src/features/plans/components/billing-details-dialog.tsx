import { useConfirmDiscard } from '@/components/ui/confirm-discard';
import { ModalForm } from '@/components/ui/form-dialog';
import { paymentsTexts } from '../utils/billing-details';
import { BillingDetailsFields, useBillingDetailsForm } from './billing-details-form';

/**
 * On /plans, when Checkout is refused for want of billing data (409 billing_details_missing): the form of
 * Ajustes › Pagos in a dialog; once saved, `onSaved` goes on to the Checkout. Mounted per opening.
 */
export function BillingDetailsDialog({ wid, onClose, onSaved }: { wid: string; onClose: () => void; onSaved: () => void }) {
  const { form, onSubmit, formError } = useBillingDetailsForm(wid, null, {
    onSaved: () => {
      discard.release();
      onSaved();
    },
  });
  const { isDirty, isSubmitting } = form.formState;
  const discard = useConfirmDiscard(isDirty);
  return (
    <>
      <ModalForm
        id="billing-details-form"
        title="Datos de facturación"
        description={paymentsTexts.detailsAsked}
        dirty={isDirty}
        onClose={() => discard.confirm(onClose)}
        error={formError}
        pending={isSubmitting}
        confirmLabel="Guardar y continuar al pago"
        onConfirm={onSubmit}
        className="grid gap-4"
      >
        <BillingDetailsFields form={form} />
      </ModalForm>
      {discard.dialog}
    </>
  );
}
