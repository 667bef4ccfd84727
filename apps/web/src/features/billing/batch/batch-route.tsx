import { useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { NoAccess } from '@/components/ui/no-access';
import { PageSpinner } from '@/components/ui/spinner';
import { usePageTitle } from '@/lib/use-page-title';
import { errorMessage, isUuid } from '@divan/core';
import { BillingPage } from '../components/billing-page';
import { useBillingScope } from '../components/use-billing-scope';
import { BatchForm } from './batch-form';
import { BatchProgress } from './batch-progress';

/**
 * «Facturar en lote» (Advance and Team): a period's completed, not-yet-invoiced sessions, one invoice
 * per patient and therapist, previewed and then issued by a job. The batch's id stays in the URL, so a
 * reload or a link goes back to its progress.
 */
export function BatchRoute() {
  usePageTitle('Facturar en lote', 'Facturación');
  const scope = useBillingScope();
  const [params, setParams] = useSearchParams();
  const batchId = params.get('batch');
  if (!scope.ready) return <PageSpinner />;

  let body;
  if (!scope.canCreate) body = <NoAccess title="No puedes crear facturas en este espacio" />;
  else if (isUuid(batchId)) body = <BatchProgress key={batchId} wid={scope.wid} id={batchId} onAnother={() => setParams({})} />;
  else if (!scope.workspace.features.canCreateInvoiceBatch) {
    body = (
      <Alert variant="info">
        {errorMessage('invoice_batch_not_allowed')}. Con el plan Premium o Team puedes emitir de una vez las facturas de todas las sesiones
        realizadas de un periodo.
      </Alert>
    );
  } else body = <BatchForm key={scope.wid} wid={scope.wid} onStarted={(id) => setParams({ batch: id })} />;

  return (
    <BillingPage title="Facturar en lote" description="Una factura por paciente con sus sesiones realizadas y sin facturar del periodo.">
      {body}
    </BillingPage>
  );
}

export { BatchRoute as Component };
