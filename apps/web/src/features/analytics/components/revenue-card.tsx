import { Link } from 'react-router';
import { ArrowRight, Eye, EyeOff } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { LoadError } from '@/components/ui/states';
import { useDashboardStats } from '../api/analytics-api';
import { SparkArea } from './spark-area';
import { delta, formatMoney, longDay, plural, shortDay } from '../utils/figures';
import { HIDDEN_AMOUNT, setAmountsHidden, useAmountsHidden } from '../utils/hidden-amounts';

/**
 * The dashboard's money (spec §2): what was invoiced this month against the same days of the last, what
 * came in, what is owed, and the last 30 days day by day; hidden with one click, remembered.
 */
export function RevenueCard({ workspaceId }: { workspaceId: string }) {
  const q = useDashboardStats(workspaceId);
  const hidden = useAmountsHidden();
  const money = (c: number) => (hidden ? HIDDEN_AMOUNT : formatMoney(c));
  const r = q.data?.revenue;
  const d = r && !hidden ? delta(r.monthIssuedCents, r.previousMonthIssuedCents) : null;
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle>Ingresos del mes</CardTitle>
        <Button variant="ghost" size="sm" aria-pressed={hidden} onClick={() => setAmountsHidden(!hidden)}>
          {hidden ? <Eye aria-hidden /> : <EyeOff aria-hidden />}
          {hidden ? 'Mostrar importes' : 'Ocultar importes'}
        </Button>
      </CardHeader>
      <CardContent className="grid gap-5">
        {q.isPending ? (
          <Spinner />
        ) : q.isError ? (
          <LoadError error={q.error} onRetry={() => void q.refetch()} what="los ingresos" />
        ) : r ? (
          <>
            <dl className="grid grid-cols-2 gap-4 sm:grid-cols-3">
              <div className="col-span-2 grid gap-1 sm:col-span-1">
                <dt className="text-[0.8125rem] text-muted-foreground">Facturado</dt>
                <dd className="font-display text-3xl font-semibold tabular-nums tracking-tight">{money(r.monthIssuedCents)}</dd>
                {d ? (
                  <dd className="text-xs text-muted-foreground">
                    <span className={d.tone === 'good' ? 'text-success' : d.tone === 'bad' ? 'text-destructive' : undefined}>{d.text}</span>{' '}
                    frente a los mismos días del mes pasado
                  </dd>
                ) : null}
              </div>
              <div className="grid content-start gap-1">
                <dt className="text-[0.8125rem] text-muted-foreground">Cobrado</dt>
                <dd className="text-xl font-semibold tabular-nums">{money(r.monthCollectedCents)}</dd>
              </div>
              <div className="grid content-start gap-1">
                <dt className="text-[0.8125rem] text-muted-foreground">Pendiente de cobro</dt>
                <dd className="text-xl font-semibold tabular-nums">{money(r.dueCents)}</dd>
                <dd className="text-xs text-muted-foreground">{plural(r.dueCount, 'factura', 'facturas')}</dd>
              </div>
            </dl>
            <figure className="grid gap-2">
              <figcaption className="text-[0.8125rem] font-medium text-muted-foreground">Facturado en los últimos 30 días</figcaption>
              <SparkArea
                points={r.last30Days.map((x) => ({ day: x.day, value: x.cents }))}
                label="Facturado por día, últimos 30 días"
                series="Facturado"
                formatValue={formatMoney}
                formatTick={shortDay}
                formatDay={longDay}
                hidden={hidden}
              />
              <table className="sr-only">
                <caption>Facturado por día, últimos 30 días</caption>
                <thead>
                  <tr>
                    <th scope="col">Día</th>
                    <th scope="col">Facturado</th>
                  </tr>
                </thead>
                <tbody>
                  {r.last30Days.map((x) => (
                    <tr key={x.day}>
                      <th scope="row">{longDay(x.day)}</th>
                      <td>{hidden ? 'Oculto' : formatMoney(x.cents)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </figure>
            <Link to="/analytics" className="inline-flex items-center gap-1 text-sm font-medium">
              {q.data.advanced ? 'Ver estadísticas' : 'Resumen y estadísticas'} <ArrowRight className="size-4" aria-hidden />
            </Link>
          </>
        ) : null}
      </CardContent>
    </Card>
  );
}
