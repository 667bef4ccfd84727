import { useState } from 'react';
import { Link } from 'react-router';
import { CalendarCheck, Plus, ReceiptText, TriangleAlert } from 'lucide-react';
import { patientBillingGap, patientBuyerName, type Patient } from '@divan/core';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Pagination } from '@/components/ui/pagination';
import { EmptyState, LoadError } from '@/components/ui/states';
import { formatCurrency } from '@/lib/format';
import { useInvoiceList } from '../api/invoices-api';
import { usePatientCompletedSessions } from '../api/support-api';
import { useBillingScope } from '../components/use-billing-scope';
import { InvoicesTable, InvoicesTableSkeleton } from '../list/invoices-table';
import { useRowActions } from '../list/use-row-actions';
import { PatientCardSection } from '../payments/components/patient-card-section';
import { PacksSection } from '../packs/packs-section';

const PAGE_SIZE = 10;

type Props = {
  patient: Pick<Patient, 'id' | 'billingInfo' | 'email'> & { name: string; sessionPriceCents?: number | null };
  /** The member reads the patient's billing data (patient_billing): otherwise it is not shown at all. */
  showsBillingInfo: boolean;
  /** …and may change it (patient_billing update): the card's switch and links. */
  editsBillingInfo?: boolean;
};

/** The patient's «Facturación»: what they owe, what is left to invoice, their billing data and their invoices. */
export function PatientBillingTab({ patient, showsBillingInfo, editsBillingInfo = false }: Props) {
  const { wid, ability, canCreate } = useBillingScope();
  const [page, setPage] = useState(1);
  const list = useInvoiceList(wid, { patientId: patient.id, page, pageSize: PAGE_SIZE });
  const due = useInvoiceList(wid, { patientId: patient.id, status: 'issued', paymentStatus: 'pending', pageSize: 1 });
  const sessions = usePatientCompletedSessions(wid, patient.id);
  const pending = sessions.data?.filter((s) => !s.invoiced) ?? [];
  const pendingCents = pending.reduce((sum, s) => sum + s.price, 0);
  const { actions, dialogs } = useRowActions(wid, ability);
  const newInvoice = `/billing/editor?patient=${patient.id}`;
  const owed = due.data?.totals.totalCents ?? 0;

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <dl aria-label="Resumen de facturación" className="grid gap-3 sm:grid-cols-3">
        {/* Pending issued invoices, rectifying ones included: a cancelled invoice that was paid leaves money to give back. */}
        <Summary
          label={owed < 0 ? 'A devolver' : 'Pendiente de cobro'}
          value={due.data ? formatCurrency(Math.abs(owed)) : null}
          hint={due.data ? countLabel(due.data.total, 'factura pendiente', 'facturas pendientes') : undefined}
          strong
        />
        <Summary
          label="Sesiones sin facturar"
          value={sessions.data ? String(pending.length) : null}
          hint={sessions.data && pending.length ? `${formatCurrency(pendingCents)} en total` : undefined}
        />
        <Summary
          label="Facturas"
          value={list.data ? String(list.data.total) : null}
          hint={list.data ? `${formatCurrency(list.data.totals.totalCents)} facturado` : undefined}
        />
      </dl>

      {canCreate && pending.length > 0 ? (
        <Card className="flex flex-wrap items-center gap-3 p-4">
          <CalendarCheck className="size-5 text-primary" aria-hidden />
          <p className="min-w-0 flex-1 text-sm">
            {pending.length === 1 ? 'Tiene 1 sesión realizada sin facturar.' : `Tiene ${pending.length} sesiones realizadas sin facturar.`}
          </p>
          <Button asChild size="sm">
            <Link to={`${newInvoice}&sessions=1`}>Facturar sesiones</Link>
          </Button>
        </Card>
      ) : null}

      {showsBillingInfo ? <BillingInfoCard info={patient.billingInfo ?? null} patientName={patient.name} /> : null}
      {showsBillingInfo ? (
        <PatientCardSection
          wid={wid}
          patient={{ id: patient.id, name: patient.name, email: patient.email || null }}
          canUpdate={editsBillingInfo}
        />
      ) : null}
      {showsBillingInfo ? (
        <PacksSection wid={wid} patientId={patient.id} editable={editsBillingInfo} sessionPriceCents={patient.sessionPriceCents ?? null} />
      ) : null}

      <section aria-label="Facturas del paciente" aria-busy={list.isFetching} className="grid grid-cols-[minmax(0,1fr)] gap-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 className="font-display text-xl font-semibold tracking-tight">Facturas</h2>
          {canCreate ? (
            <Button asChild variant="outline" size="sm">
              <Link to={newInvoice}>
                <Plus aria-hidden /> Nueva factura
              </Link>
            </Button>
          ) : null}
        </div>
        {list.isError && !list.data ? (
          <LoadError error={list.error} onRetry={() => void list.refetch()} what="las facturas del paciente" />
        ) : !list.data ? (
          <InvoicesTableSkeleton />
        ) : list.data.total === 0 ? (
          <div className="rounded-xl border border-dashed bg-card">
            <EmptyState icon={<ReceiptText aria-hidden />} title="Sin facturas" text="Las facturas de este paciente aparecerán aquí." />
          </div>
        ) : (
          <div className={list.isPlaceholderData ? 'opacity-60 transition-opacity' : 'transition-opacity'}>
            <InvoicesTable items={list.data.items} actions={actions} showTherapist={false} />
          </div>
        )}
        {list.data && list.data.total > PAGE_SIZE ? (
          <Pagination page={page} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPage} />
        ) : null}
      </section>
      {dialogs}
    </div>
  );
}

const countLabel = (n: number, one: string, many: string) => (n === 1 ? `1 ${one}` : `${n} ${many}`);

function Summary({ label, value, hint, strong }: { label: string; value: string | null; hint?: string; strong?: boolean }) {
  return (
    <Card className={strong ? 'grid gap-0.5 bg-accent/40 p-4' : 'grid gap-0.5 p-4'}>
      <dt className="text-[0.8125rem] text-muted-foreground">{label}</dt>
      <dd className="font-display text-2xl font-semibold tabular-nums">
        {value ?? <span className="inline-block h-7 w-20 animate-pulse rounded bg-muted" aria-label="Cargando" />}
      </dd>
      {hint ? <dd className="text-[0.8125rem] text-muted-foreground">{hint}</dd> : null}
    </Card>
  );
}

function BillingInfoCard({ info, patientName }: { info: NonNullable<Patient['billingInfo']> | null; patientName: string }) {
  // Issuing's rule: only a missing NIF leaves the buyer unidentified; a missing billing name prints the patient's.
  const gap = patientBillingGap(info);
  const address = info
    ? [info.line1, info.line2, [info.zipCode, info.city].filter(Boolean).join(' '), info.country].filter(Boolean).join(', ')
    : '';
  return (
    <Card>
      <CardHeader className="grid-cols-[minmax(0,1fr)_auto] items-start gap-3">
        <div className="grid gap-1">
          <CardTitle>Datos de facturación</CardTitle>
          <CardDescription>Los que aparecen en sus facturas cuando paga el propio paciente.</CardDescription>
        </div>
        <Button asChild variant="outline" size="sm">
          <Link to="../info">Editar datos</Link>
        </Button>
      </CardHeader>
      <CardContent className="grid gap-3">
        {gap ? (
          <p className="flex items-start gap-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950/40 dark:text-amber-200">
            <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
            {gap}
          </p>
        ) : null}
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-3">
          <Row
            label="Nombre o razón social"
            value={info?.fullName ? info.fullName : `${patientBuyerName(patientName, info)} (su nombre)`}
          />
          <Row label="NIF" value={info?.taxId} />
          <Row label="Dirección" value={address} />
        </dl>
      </CardContent>
    </Card>
  );
}

function Row({ label, value }: { label: string; value: string | null | undefined }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-[0.8125rem] text-muted-foreground">{label}</dt>
      <dd className="break-words">{value || '—'}</dd>
    </div>
  );
}
