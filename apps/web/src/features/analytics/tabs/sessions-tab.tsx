import { formatRate, noShowRate, rate } from '@divan/core';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useAnalyticsTab } from '../api/analytics-api';
import { BarChartCard } from '../components/bar-chart';
import { Heatmap } from '../components/heatmap';
import { StatCard, StatGrid } from '../components/stat-card';
import { StatsTable } from '../components/stats-table';
import { TabStates } from '../components/tab-states';
import { formatCount, formatMinutes, monthLabel, shortDay } from '../utils/figures';
import type { TabProps } from './tab-props';

/** Days drawn one by one up to a quarter; a longer period is drawn by month. */
const DAILY_MAX = 92;

export function SessionsTab({ workspaceId, filter, open }: TabProps) {
  const q = useAnalyticsTab(workspaceId, 'sessions', filter);
  if (!q.data) return <TabStates q={q} what="las sesiones" />;
  const { totals: t, previous: p, byDay, heatmap, byTherapist, utilisation: u } = q.data;
  const n = formatCount;
  const daily = byDay.length <= DAILY_MAX;
  const months = new Map<string, { month: string; completed: number; pending: number; canceled: number }>();
  if (!daily)
    for (const d of byDay) {
      const m =
        months.get(d.day.slice(0, 7)) ??
        months.set(d.day.slice(0, 7), { month: d.day.slice(0, 7), completed: 0, pending: 0, canceled: 0 }).get(d.day.slice(0, 7))!;
      m.completed += d.completed;
      m.pending += d.pending;
      m.canceled += d.canceled;
    }
  const series = [
    { key: 'completed', label: 'Realizadas', color: 'var(--color-primary)', format: n },
    { key: 'pending', label: 'Pendientes', color: 'color-mix(in oklab, var(--color-primary) 40%, transparent)', format: n },
    { key: 'canceled', label: 'Canceladas', color: 'var(--color-destructive)', format: n },
  ];
  const reasons = t.canceledByReason;
  return (
    <div className="grid gap-6">
      <StatGrid>
        <StatCard
          label="Sesiones"
          value={n(t.scheduled)}
          current={t.scheduled}
          previous={p.scheduled}
          onOpen={() => open('scheduled', 'Sesiones')}
        />
        <StatCard
          label="Realizadas"
          value={n(t.completed)}
          current={t.completed}
          previous={p.completed}
          onOpen={() => open('completed', 'Sesiones realizadas')}
        />
        <StatCard
          label="Pendientes"
          value={n(t.pending)}
          current={t.pending}
          previous={p.pending}
          onOpen={() => open('pending', 'Sesiones pendientes')}
        />
        <StatCard
          label="Canceladas"
          value={n(t.canceled)}
          current={t.canceled}
          previous={p.canceled}
          upIsGood={false}
          hint={`Paciente ${reasons.patient} · Terapeuta ${reasons.therapist} · Tardías ${reasons.late}`}
          onOpen={() => open('canceled', 'Sesiones canceladas')}
        />
        <StatCard
          label="No presentadas"
          value={n(reasons.no_show)}
          current={reasons.no_show}
          previous={p.canceledByReason.no_show}
          upIsGood={false}
          hint={`Tasa ${formatRate(noShowRate(reasons.no_show, t.completed))}`}
          onOpen={() => open('no_show', 'Pacientes que no se presentaron')}
        />
        <StatCard
          label="Online"
          value={n(t.online)}
          current={t.online}
          previous={p.online}
          hint={formatRate(rate(t.online, t.online + t.presential))}
          onOpen={() => open('online', 'Sesiones online')}
        />
        <StatCard
          label="Presenciales"
          value={n(t.presential)}
          current={t.presential}
          previous={p.presential}
          onOpen={() => open('presential', 'Sesiones presenciales')}
        />
        <StatCard label="Tiempo reservado" value={formatMinutes(t.bookedMinutes)} current={t.bookedMinutes} previous={p.bookedMinutes} />
        <StatCard
          label="Ocupación"
          value={u ? formatRate(rate(u.bookedMinutes, u.offeredMinutes)) : null}
          hint={
            u
              ? `${formatMinutes(u.bookedMinutes)} reservadas de ${formatMinutes(u.offeredMinutes)} que ofrece el horario de reservas`
              : 'Sin horario de reservas publicado en el periodo'
          }
        />
      </StatGrid>
      {daily ? (
        <BarChartCard title="Sesiones por día" rows={byDay} x="day" xLabel="Día" formatX={shortDay} series={series} stacked />
      ) : (
        <BarChartCard
          title="Sesiones por mes"
          rows={[...months.values()]}
          x="month"
          xLabel="Mes"
          formatX={monthLabel}
          series={series}
          stacked
        />
      )}
      <Heatmap cells={heatmap} />
      {byTherapist.length > 1 ? (
        <Card>
          <CardHeader>
            <CardTitle>Por terapeuta</CardTitle>
          </CardHeader>
          <CardContent className="overflow-x-auto">
            <StatsTable
              columns={['Terapeuta', 'Sesiones', 'Realizadas', 'Canceladas', 'No presentadas', 'Tiempo', 'Ocupación']}
              rows={byTherapist.map((r) => ({
                key: r.therapistId,
                head: r.name,
                cells: [
                  n(r.scheduled),
                  n(r.completed),
                  n(r.canceled),
                  n(r.noShows),
                  formatMinutes(r.bookedMinutes),
                  r.offeredMinutes ? formatRate(rate(r.bookedMinutes, r.offeredMinutes)) : '—',
                ],
              }))}
            />
          </CardContent>
        </Card>
      ) : null}
    </div>
  );
}
