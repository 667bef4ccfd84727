import { Download, Scale } from 'lucide-react';
import { feeBalanceQuery, type FeeBalance } from '@divan/core';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { NoAccess } from '@/components/ui/no-access';
import { PageSpinner } from '@/components/ui/spinner';
import { EmptyState, LoadError } from '@/components/ui/states';
import { messageOf } from '@/lib/error-message';
import { formatCurrency } from '@/lib/format';
import { toast } from '@/lib/toast';
import { usePageTitle } from '@/lib/use-page-title';
import { downloadFeeBalanceCsv, useFeeBalance } from '../api/support-api';
import { PeriodFields, rangeErrors, usePeriod } from '../components/period-fields';
import { BillingPage } from '../components/billing-page';
import { useBillingScope } from '../components/use-billing-scope';

type Row = FeeBalance['rows'][number];
const COLUMNS: { label: string; value: (r: Row) => number; hint?: string }[] = [
  { label: 'Facturado', value: (r) => r.billedCents },
  { label: 'Honorarios', value: (r) => r.feeCents, hint: 'La parte del terapeuta, según su comisión' },
  { label: 'Cobrado por el espacio', value: (r) => r.collectedByWorkspaceCents },
  { label: 'Cobrado por el terapeuta', value: (r) => r.collectedByTherapistCents },
];
const sum = (rows: Row[], f: (r: Row) => number) => rows.reduce((s, r) => s + f(r), 0);

/** Who owes whom, in words: a positive balance is paid by the workspace to the therapist. */
function balanceText(cents: number): string {
  if (cents === 0) return 'En paz';
  return cents > 0 ? `El espacio le debe ${formatCurrency(cents)}` : `Debe al espacio ${formatCurrency(-cents)}`;
}

/**
 * «Saldo de honorarios» (workspaces): for a period's completed sessions, per therapist, their fees, who
 * collected the money, and what the workspace owes each therapist or each owes the workspace.
 */
export function FeeBalanceRoute() {
  usePageTitle('Saldo de honorarios', 'Facturación');
  const scope = useBillingScope();
  const period = usePeriod();
  const errors = rangeErrors(feeBalanceQuery, period.range);
  const valid = !errors.from && !errors.to;
  const allowed = scope.ready && scope.ability.can('read', 'workspace_invoices') && scope.workspace.template !== 'freelance';
  const balance = useFeeBalance(scope.wid, allowed && valid ? period.range : null);
  if (!scope.ready) return <PageSpinner />;

  const rows = balance.data?.rows ?? [];
  return (
    <BillingPage title="Saldo de honorarios" description="Por terapeuta, las sesiones realizadas del periodo: sus honorarios, quién cobró y quién debe a quién." width="max-w-6xl">
      {!allowed ? (
        <NoAccess title={scope.workspace.template === 'freelance' ? 'El saldo de honorarios es para equipos y clínicas' : 'No puedes ver el saldo de honorarios de este espacio'} />
      ) : (
        <>
          <Card>
            <CardContent className="grid gap-4 pt-5 sm:grid-cols-2 sm:pt-6 lg:grid-cols-4 lg:items-end">
              <PeriodFields state={period} errors={errors} />
              <Button variant="outline" disabled={!valid || !rows.length} onClick={() => void downloadFeeBalanceCsv(scope.wid, period.range).catch((e: unknown) => toast.error(messageOf(e)))}>
                <Download aria-hidden /> Exportar CSV
              </Button>
            </CardContent>
          </Card>
          <section aria-label="Saldo por terapeuta" aria-busy={balance.isFetching} className="grid grid-cols-[minmax(0,1fr)]">
            {balance.isError && !balance.data ? (
              <LoadError error={balance.error} onRetry={() => void balance.refetch()} what="el saldo de honorarios" />
            ) : !balance.data ? (
              valid ? <div className="h-40 animate-pulse rounded-xl border bg-muted/40" aria-label="Cargando" /> : null
            ) : rows.length === 0 ? (
              <div className="rounded-xl border border-dashed bg-card">
                <EmptyState icon={<Scale aria-hidden />} title="Sin sesiones realizadas en ese periodo" text="El saldo se calcula con las sesiones realizadas de cada terapeuta." />
              </div>
            ) : (
              <div className={balance.isPlaceholderData ? 'overflow-x-auto rounded-xl border bg-card opacity-60' : 'overflow-x-auto rounded-xl border bg-card'}>
                <table className="w-full min-w-[48rem] text-sm">
                  <thead className="border-b bg-muted/50 text-[0.8125rem] text-muted-foreground">
                    <tr>
                      <th scope="col" className="px-4 py-2.5 text-left font-medium">Terapeuta</th>
                      <th scope="col" className="px-4 py-2.5 text-right font-medium">Sesiones</th>
                      {COLUMNS.map((c) => (
                        <th key={c.label} scope="col" className="px-4 py-2.5 text-right font-medium" title={c.hint}>
                          {c.label}
                        </th>
                      ))}
                      <th scope="col" className="px-4 py-2.5 text-right font-medium">Saldo</th>
                    </tr>
                  </thead>
                  <tbody className="divide-y">
                    {rows.map((r) => (
                      <tr key={r.therapist.id}>
                        <th scope="row" className="px-4 py-2.5 text-left font-medium">{r.therapist.name}</th>
                        <td className="px-4 py-2.5 text-right tabular-nums">{r.sessions}</td>
                        {COLUMNS.map((c) => (
                          <td key={c.label} className="whitespace-nowrap px-4 py-2.5 text-right tabular-nums">{formatCurrency(c.value(r))}</td>
                        ))}
                        <td className="whitespace-nowrap px-4 py-2.5 text-right font-medium">{balanceText(r.balanceCents)}</td>
                      </tr>
                    ))}
                  </tbody>
                  <tfoot className="border-t bg-muted/30 font-medium">
                    <tr>
                      <th scope="row" className="px-4 py-2.5 text-left">Total</th>
                      <td className="px-4 py-2.5 text-right tabular-nums">{sum(rows, (r) => r.sessions)}</td>
                      {COLUMNS.map((c) => (
                        <td key={c.label} className="whitespace-nowrap px-4 py-2.5 text-right tabular-nums">{formatCurrency(sum(rows, c.value))}</td>
                      ))}
                      <td className="whitespace-nowrap px-4 py-2.5 text-right tabular-nums">{formatCurrency(sum(rows, (r) => r.balanceCents))}</td>
                    </tr>
                  </tfoot>
                </table>
              </div>
            )}
          </section>
        </>
      )}
    </BillingPage>
  );
}

export { FeeBalanceRoute as Component };
