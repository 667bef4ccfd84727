import { useCallback, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { FileStack, Plus, ReceiptText, Scale, SearchX } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { NoAccess } from '@/components/ui/no-access';
import { PageSpinner } from '@/components/ui/spinner';
import { usePageTitle } from '@/lib/use-page-title';
import { useInvoiceList, useInvoiceSeries } from '../api/invoices-api';
import { useTherapists } from '../api/support-api';
import { ExportMenu } from './export-menu';
import type { PickedPatient } from '@/components/patient-picker';
import { EmptyState, LoadError } from '@/components/ui/states';
import { TotalsSummary } from '../components/totals-summary';
import { useBillingScope } from '../components/use-billing-scope';
import { hasFilters, NO_FILTERS, PAGE_SIZE, readListState, toQuery, writeListState, type ListState } from '../utils/list-params';
import { InvoicesTable, InvoicesTableSkeleton } from './invoices-table';
import { useRowActions } from './use-row-actions';
import { ListFilters } from './list-filters';
import { Pagination } from '@/components/ui/pagination';

/** The list's state, read from and written to the URL. Any change but paging goes back to page 1. */
function useListState() {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readListState(params), [params]);
  const update = useCallback(
    (patch: Partial<ListState>, options: { replace?: boolean } = {}) =>
      setParams((prev) => writeListState({ ...readListState(prev), page: 1, ...patch }), { replace: options.replace }),
    [setParams],
  );
  return [state, update] as const;
}

export function BillingListRoute() {
  usePageTitle('Facturación');
  const scope = useBillingScope();
  if (!scope.ready) return <PageSpinner />;
  if (!scope.canRead) {
    return (
      <div className="mx-auto grid w-full max-w-3xl gap-6">
        <h1 className="font-display text-3xl font-semibold tracking-tight">Facturación</h1>
        <NoAccess title="No puedes ver las facturas de este espacio" />
      </div>
    );
  }
  return <BillingList key={scope.wid} />;
}

function BillingList() {
  const { wid, ability, canCreate, workspace } = useBillingScope();
  const [state, update] = useListState();
  const list = useInvoiceList(wid, toQuery(state));
  const series = useInvoiceSeries(wid);
  const therapists = useTherapists(wid, ability.can('read', 'members'));
  const team = (therapists.data?.length ?? 0) > 1;
  const [picked, setPicked] = useState<PickedPatient | null>(null);
  const { actions, dialogs } = useRowActions(wid, ability);
  const data = list.data;
  const nothingAtAll = data && data.total === 0 && !hasFilters(state);
  // The filtered patient's name: the picker's choice, or a row's (a link with ?patient=).
  const patientName = picked?.id === state.patient ? picked : (data?.items.find((i) => i.patient?.id === state.patient)?.patient ?? null);

  const batch = canCreate ? (
    <Button asChild variant="outline" className="flex-1 sm:flex-none">
      <Link to="/billing/batch">
        <FileStack aria-hidden /> Facturar en lote
      </Link>
    </Button>
  ) : null;
  // The fee balance is the workspace's (a team or a clinic), for whoever reads its invoices.
  const feeBalance =
    workspace.template !== 'freelance' && ability.can('read', 'workspace_invoices') ? (
      <Button asChild variant="outline" className="flex-1 sm:flex-none">
        <Link to="/billing/fee-balance">
          <Scale aria-hidden /> Saldo de honorarios
        </Link>
      </Button>
    ) : null;
  const create = canCreate ? (
    <Button asChild className="w-full sm:w-auto">
      <Link to="/billing/editor">
        <Plus aria-hidden /> Nueva factura
      </Link>
    </Button>
  ) : null;

  return (
    <div className="mx-auto grid w-full max-w-7xl grid-cols-[minmax(0,1fr)] gap-6">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="grid gap-1">
          <h1 className="font-display text-3xl font-semibold tracking-tight">Facturación</h1>
          <p className="text-sm text-muted-foreground">Tus facturas: borradores, emitidas y rectificativas.</p>
        </div>
        {/* With no invoice yet, creating one is offered in the empty state; the fee balance (sessions) still here. */}
        {nothingAtAll ? (
          feeBalance
        ) : (
          <div className="flex w-full flex-wrap gap-2 sm:w-auto">
            <ExportMenu wid={wid} query={toQuery(state)} className="flex-1 sm:flex-none" />
            {feeBalance}
            {batch}
            {create}
          </div>
        )}
      </header>

      {nothingAtAll ? (
        <div className="rounded-xl border border-dashed bg-card">
          <EmptyState
            icon={<ReceiptText aria-hidden />}
            title="Aún no tienes facturas"
            text="Crea tu primera factura a partir de las sesiones realizadas de un paciente, o con conceptos libres."
          >
            <div className="flex flex-wrap justify-center gap-2">
              {create}
              {batch}
            </div>
          </EmptyState>
        </div>
      ) : (
        <>
          <ListFilters
            wid={wid}
            state={state}
            update={update}
            therapists={team ? (therapists.data ?? null) : null}
            series={series.data ?? []}
            patient={patientName}
            onPatient={setPicked}
          />
          {data ? <TotalsSummary totals={data.totals} label="Totales de las facturas filtradas" /> : null}
          <section aria-label="Listado de facturas" aria-busy={list.isFetching} className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-4">
            {list.isError && !data ? (
              <LoadError error={list.error} onRetry={() => void list.refetch()} what="las facturas" />
            ) : !data ? (
              <InvoicesTableSkeleton />
            ) : data.items.length === 0 ? (
              <div className="rounded-xl border bg-card">
                <EmptyState icon={<SearchX aria-hidden />} title="Ninguna factura coincide" text="Prueba con otras fechas u otros filtros.">
                  <Button variant="outline" onClick={() => update(NO_FILTERS)}>
                    Limpiar filtros
                  </Button>
                </EmptyState>
              </div>
            ) : (
              <div className={list.isPlaceholderData ? 'opacity-60 transition-opacity' : 'transition-opacity'}>
                <InvoicesTable items={data.items} actions={actions} showTherapist={team} />
              </div>
            )}
            {data && data.total > 0 ? (
              <Pagination page={state.page} pageSize={PAGE_SIZE} total={data.total} onPage={(page) => update({ page })} />
            ) : null}
          </section>
        </>
      )}

      {dialogs}
    </div>
  );
}

export { BillingListRoute as Component };
