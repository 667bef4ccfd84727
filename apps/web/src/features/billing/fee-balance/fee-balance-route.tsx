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
  { label: 'Parte del terapeuta', value: (r) => r.feeCents, hint: 'El precio de sus sesiones menos la comisión del espacio' },
  { label: 'Comisión del espacio', value: (r) => r.commissionCents, hint: 'Lo que se queda el espacio, según la comisión de cada miembro' },
  { label: 'Cobrado por el espacio', value: (r) => r.collectedByWorkspaceCents },
  { label: 'Cobrado por el terapeuta', value: (r) => r.collectedByTherapistCents },
];
const sum = (rows: Row[], f: (r: Row) => number) => rows.reduce((s, r) => s + f(r), 0);

/** The verdict as it reads: who pays is the subject, so the colour says which way the money goes. */
function Verdict({ row }: { row: Row }) {
  const tone =
    row.balanceCents > 0 ? 'text-primary' : row.balanceCents < 0 ? 'text-amber-800 dark:text-amber-300' : 'text-muted-foreground';
  return <span className={`font-medium ${tone}`}>{row.verdict}</span>;
}

function Reasons({ row }: { row: Row }) {
  return (
    <ul className="grid gap-0.5 text-[0.8125rem] text-muted-foreground">
      {row.reasons.map((r) => (
        <li key={r}>{r}</li>
      ))}
    </ul>
  );
}

/** On phones: one card per therapist, the verdict first, then why, then the figures. */
function BalanceCards({ rows }: { rows: Row[] }) {
  return (
    <ul className="grid gap-3 md:hidden">
      {rows.map((r) => (
        <li key={r.therapist.id}>
          <Card className="grid gap-3 p-4">
            <div className="grid gap-1">
              <h3 className="font-semibold">{r.therapist.name}</h3>
              <Verdict row={r} />
              <Reasons row={r} />
            </div>
            <dl className="grid grid-cols-2 gap-x-4 gap-y-1.5 text-sm">
              <dt className="text-muted-foreground">Sesiones</dt>
              <dd className="text-right tabular-nums">{r.sessions}</dd>
              {COLUMNS.map((c) => (
                <div key={c.label} className="contents">
                  <dt className="text-muted-foreground">{c.label}</dt>
                  <dd className="whitespace-nowrap text-right tabular-nums">{formatCurrency(c.value(r))}</dd>
                </div>
              ))}
            </dl>
          </Card>
        </li>
      ))}
    </ul>
  );
}

/** On wider screens: a table, each therapist's row followed by why they owe or are owed. */
function BalanceTable({ rows }: { rows: Row[] }) {
  const owedByWorkspace = sum(rows, (r) => Math.max(r.balanceCents, 0));
  const owedToWorkspace = sum(rows, (r) => Math.max(-r.balanceCents, 0));
  return (
    <div className="hidden overflow-x-auto rounded-xl border bg-card md:block">
      <table className="w-full min-w-[56rem] text-sm">
        <thead className="border-b bg-muted/50 text-[0.8125rem] text-muted-foreground">
          <tr>
            <th scope="col" className="px-4 py-2.5 text-left font-medium">
              Terapeuta
            </th>
            <th scope="col" className="px-4 py-2.5 text-right font-medium">
              Sesiones
            </th>
            {COLUMNS.map((c) => (
              <th key={c.label} scope="col" className="px-4 py-2.5 text-right font-medium" title={c.hint}>
                {c.label}
              </th>
            ))}
            <th scope="col" className="px-4 py-2.5 text-right font-medium">
              Quién debe a quién
            </th>
          </tr>
        </thead>
        {rows.map((r) => (
          <tbody key={r.therapist.id} className="border-b last:border-b-0">
            <tr>
              <th scope="row" className="px-4 pt-2.5 text-left font-medium">
                {r.therapist.name}
              </th>
              <td className="px-4 pt-2.5 text-right tabular-nums">{r.sessions}</td>
              {COLUMNS.map((c) => (
                <td key={c.label} className="whitespace-nowrap px-4 pt-2.5 text-right tabular-nums">
                  {formatCurrency(c.value(r))}
                </td>
              ))}
              <td className="whitespace-nowrap px-4 pt-2.5 text-right">
                <Verdict row={r} />
              </td>
            </tr>
            <tr>
              <td colSpan={COLUMNS.length + 3} className="px-4 pb-2.5 pt-1">
                <Reasons row={r} />
              </td>
            </tr>
          </tbody>
        ))}
        <tfoot className="border-t bg-muted/30 font-medium">
          <tr>
            <th scope="row" className="px-4 py-2.5 text-left">
              Total
            </th>
            <td className="px-4 py-2.5 text-right tabular-nums">{sum(rows, (r) => r.sessions)}</td>
            {COLUMNS.map((c) => (
              <td key={c.label} className="whitespace-nowrap px-4 py-2.5 text-right tabular-nums">
                {formatCurrency(sum(rows, c.value))}
              </td>
            ))}
            <td className="px-4 py-2.5 text-right text-[0.8125rem]">
              <span className="block whitespace-nowrap">El espacio debe {formatCurrency(owedByWorkspace)}</span>
              <span className="block whitespace-nowrap">Al espacio le deben {formatCurrency(owedToWorkspace)}</span>
            </td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
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
    <BillingPage
      title="Saldo de honorarios"
      description="Por terapeuta, las sesiones realizadas del periodo: su parte y la comisión del espacio, quién cobró y, por eso, quién debe a quién."
      width="max-w-6xl"
    >
      {!allowed ? (
        <NoAccess
          title={
            scope.workspace.template === 'freelance'
              ? 'El saldo de honorarios es para equipos y clínicas'
              : 'No puedes ver el saldo de honorarios de este espacio'
          }
        />
      ) : (
        <>
          <Card>
            <CardContent className="grid gap-4 pt-5 sm:grid-cols-2 sm:pt-6 lg:grid-cols-4 lg:items-end">
              <PeriodFields state={period} errors={errors} />
              <Button
                variant="outline"
                disabled={!valid || !rows.length}
                onClick={() => void downloadFeeBalanceCsv(scope.wid, period.range).catch((e: unknown) => toast.error(messageOf(e)))}
              >
                <Download aria-hidden /> Exportar CSV
              </Button>
            </CardContent>
          </Card>
          <section aria-label="Saldo por terapeuta" aria-busy={balance.isFetching} className="grid grid-cols-[minmax(0,1fr)]">
            {balance.isError && !balance.data ? (
              <LoadError error={balance.error} onRetry={() => void balance.refetch()} what="el saldo de honorarios" />
            ) : !balance.data ? (
              valid ? (
                <div className="h-40 animate-pulse rounded-xl border bg-muted/40" aria-label="Cargando" />
              ) : null
            ) : rows.length === 0 ? (
              <div className="rounded-xl border border-dashed bg-card">
                <EmptyState
                  icon={<Scale aria-hidden />}
                  title="Sin sesiones realizadas en ese periodo"
                  text="El saldo se calcula con las sesiones realizadas de cada terapeuta."
                />
              </div>
            ) : (
              <div className={balance.isPlaceholderData ? 'opacity-60' : undefined}>
                <BalanceTable rows={rows} />
                <BalanceCards rows={rows} />
              </div>
            )}
          </section>
        </>
      )}
    </BillingPage>
  );
}

export { FeeBalanceRoute as Component };
