import type { ReactNode } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { DEFAULT_INVOICE_TAX_SETTINGS, type Invoice } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { NoAccess } from '@/components/ui/no-access';
import { PageSpinner } from '@/components/ui/spinner';
import { usePageTitle } from '@/lib/use-page-title';
import { useInvoice } from '../api/invoices-api';
import { useMyBilling, usePatientRef } from '../api/support-api';
import { BillingPage } from '../components/billing-page';
import { InvoiceBadges } from '../components/invoice-badges';
import { LoadError } from '@/components/ui/states';
import { mayAct, useBillingScope } from '../components/use-billing-scope';
import { emptyModel, modelOf } from '../utils/editor-model';
import { DraftEditor } from './draft-editor';
import { IssuedInvoice } from './issued-invoice';

function Frame({ title, invoice, children }: { title: string; invoice?: Invoice; children: ReactNode }) {
  return (
    <BillingPage title={title} badges={invoice ? <InvoiceBadges invoice={invoice} /> : null}>
      {children}
    </BillingPage>
  );
}

export function InvoiceEditorRoute() {
  const { id } = useParams();
  const scope = useBillingScope();
  if (!scope.ready) return <PageSpinner />;
  return <Editor key={`${scope.wid}:${id ?? 'new'}`} id={id ?? null} />;
}

function Editor({ id }: { id: string | null }) {
  const { wid, ability, canCreate, userId } = useBillingScope();
  const invoice = useInvoice(wid, id);
  const billing = useMyBilling();
  // A new invoice for a patient (`?patient=` from their «Facturación» tab; `&sessions=1` opens their sessions).
  const [params] = useSearchParams();
  const forPatient = usePatientRef(wid, id ? null : params.get('patient'));
  const data = invoice.data;
  const title = !id ? 'Nueva factura' : data?.number ? `Factura ${data.number}` : 'Borrador de factura';
  usePageTitle(title, 'Facturación');

  // Read once, when the draft editor mounts (later refetches never overwrite what is being typed). A new
  // invoice starts with the footer of the therapist's billing data.
  const patientReady = !forPatient.isLoading;
  const initial = data
    ? modelOf(data)
    : (billing.data || billing.isError) && patientReady
      ? emptyModel(billing.data?.footer ?? null, forPatient.data ?? null)
      : null;
  const settings = { withholdingRate: billing.data?.withholdingRate ?? DEFAULT_INVOICE_TAX_SETTINGS.withholdingRate };

  if (id && invoice.isError && !data) {
    return (
      <Frame title={title}>
        <LoadError error={invoice.error} onRetry={() => void invoice.refetch()} what="la factura" />
      </Frame>
    );
  }
  if ((id && !data) || !initial) return <PageSpinner />;

  if (data && data.status !== 'draft') {
    return (
      <Frame title={title} invoice={data}>
        <IssuedInvoice wid={wid} invoice={data} canUpdate={mayAct(ability, 'update', data)} />
      </Frame>
    );
  }
  const draftOwner = data ?? { sellerType: 'therapist' as const, therapist: { id: userId, name: '' } };
  if (!data && !canCreate) {
    return (
      <Frame title={title}>
        <NoAccess title="No puedes crear facturas en este espacio" />
      </Frame>
    );
  }
  return (
    <Frame title={title} invoice={data}>
      {billing.isError ? (
        <Alert variant="error">No se pudieron cargar tus datos de facturación: los totales usan la retención general del 15 %.</Alert>
      ) : null}
      <DraftEditor
        wid={wid}
        invoice={data ?? null}
        initial={initial}
        settings={settings}
        canDelete={mayAct(ability, 'delete', draftOwner)}
        canIssue={mayAct(ability, 'update', draftOwner)}
        pickSessions={params.get('sessions') === '1'}
      />
    </Frame>
  );
}

export { InvoiceEditorRoute as Component };
