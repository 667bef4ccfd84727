import { analyticsKeyLabel } from '@divan/core';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useAnalyticsTab } from '../api/analytics-api';
import { BarChartCard } from '../components/bar-chart';
import { StatCard, StatGrid } from '../components/stat-card';
import { TabStates } from '../components/tab-states';
import { StatsTable } from '../components/stats-table';
import { formatCount, formatMoney, monthLabel, plural } from '../utils/figures';

const invoices = (n: number) => plural(n, 'factura', 'facturas');
import { HIDDEN_AMOUNT } from '../utils/hidden-amounts';
import type { TabProps } from './tab-props';

export function BillingTab({ workspaceId, filter, hidden, open }: TabProps) {
  const q = useAnalyticsTab(workspaceId, 'billing', filter);
  if (!q.data) return <TabStates q={q} what="la facturación" />;
  const { totals: t, previous: p, outstanding: o, byMonth, byPaymentType, byTherapist, projection } = q.data;
  const money = (c: number) => (hidden ? HIDDEN_AMOUNT : formatMoney(c));
  const cmp = (a: number, b: number) => (hidden ? {} : { current: a, previous: b });
  return (
    <div className="grid gap-6">
      <StatGrid>
        <StatCard
          label="Facturado"
          value={money(t.issuedCents)}
          {...cmp(t.issuedCents, p.issuedCents)}
          hint={invoices(t.issuedCount)}
          onOpen={() => open('issued', 'Facturas emitidas')}
        />
        <StatCard
          label="Cobrado"
          value={money(t.collectedCents)}
          {...cmp(t.collectedCents, p.collectedCents)}
          hint={invoices(t.collectedCount)}
          onOpen={() => open('collected', 'Facturas cobradas')}
        />
        <StatCard
          label="Pendiente de cobro hoy"
          value={money(o.cents)}
          hint={invoices(o.count)}
          onOpen={() => open('outstanding', 'Facturas pendientes de cobro')}
        />
        <StatCard
          label="Realizado sin facturar"
          value={money(t.uninvoicedCents)}
          {...(hidden ? {} : { current: t.uninvoicedCents, previous: p.uninvoicedCents, upIsGood: false })}
          hint={plural(t.uninvoicedCount, 'sesión', 'sesiones')}
          onOpen={() => open('uninvoiced', 'Sesiones realizadas sin facturar')}
        />
        {projection ? (
          <StatCard
            label="Previsión del mes"
            value={money(projection.collectedCents + projection.upcomingCents)}
            hint={`Cobrado + ${plural(projection.upcomingCount, 'sesión por venir', 'sesiones por venir')}`}
          />
        ) : null}
      </StatGrid>
      <BarChartCard
        title="Por mes"
        rows={byMonth}
        x="month"
        xLabel="Mes"
        formatX={monthLabel}
        hidden={hidden}
        series={[
          {
            key: 'issuedCents',
            label: 'Facturado',
            color: 'color-mix(in oklab, var(--color-primary) 40%, transparent)',
            format: formatMoney,
          },
          { key: 'collectedCents', label: 'Cobrado', color: 'var(--color-primary)', format: formatMoney },
        ]}
      />
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Antigüedad de lo pendiente</CardTitle>
          </CardHeader>
          <CardContent>
            <StatsTable
              columns={['Desde la emisión', 'Facturas', 'Importe']}
              rows={o.ageing.map((a) => ({
                key: a.bucket,
                head: analyticsKeyLabel('ageing', a.bucket),
                cells: [formatCount(a.count), money(a.cents)],
              }))}
            />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Cobrado por forma de pago</CardTitle>
          </CardHeader>
          <CardContent>
            {byPaymentType.length === 0 ? (
              <p className="text-sm text-muted-foreground">Nada cobrado en este periodo.</p>
            ) : (
              <StatsTable
                rows={byPaymentType.map((x) => ({
                  key: x.key,
                  head: analyticsKeyLabel('paymentType', x.key),
                  cells: [invoices(x.count), money(x.cents)],
                }))}
              />
            )}
          </CardContent>
        </Card>
      </div>
      {byTherapist.length ? (
        <Card>
          <CardHeader>
            <CardTitle>Por terapeuta y saldo de honorarios</CardTitle>
          </CardHeader>
          <CardContent className="overflow-x-auto">
            <StatsTable
              columns={['Terapeuta', 'Facturado', 'Cobrado', 'Realizadas', 'Honorarios', 'Comisión del espacio']}
              rows={byTherapist.map((r) => ({
                key: r.therapistId,
                head: r.name,
                cells: [
                  money(r.issuedCents),
                  money(r.collectedCents),
                  formatCount(r.completedSessions),
                  money(r.feeCents),
                  money(r.commissionCents),
                ],
              }))}
            />
          </CardContent>
        </Card>
      ) : null}
    </div>
  );
}
