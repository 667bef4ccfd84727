import { dropOutRate, formatRate, rate } from '@divan/core';
import { analyticsKeyLabel } from '@divan/core';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useAnalyticsTab } from '../api/analytics-api';
import { StatCard, StatGrid } from '../components/stat-card';
import { StatsTable } from '../components/stats-table';
import { TabStates } from '../components/tab-states';
import { formatCount, plural } from '../utils/figures';
import type { TabProps } from './tab-props';

const num = (v: number | null, unit: string) => (v === null ? '—' : `${v.toLocaleString('es-ES', { maximumFractionDigits: 1 })} ${unit}`);

export function TreatmentsTab({ workspaceId, filter, open }: TabProps) {
  const q = useAnalyticsTab(workspaceId, 'treatments', filter);
  if (!q.data) return <TabStates q={q} what="los tratamientos" />;
  const { totals: t, previous: p, byMotive } = q.data;
  return (
    <div className="grid gap-6">
      <StatGrid>
        <StatCard
          label="Tratamientos finalizados"
          value={formatCount(t.ended)}
          current={t.ended}
          previous={p.ended}
          onOpen={() => open('ended', 'Tratamientos finalizados')}
        />
        <StatCard
          label="Abandonos"
          value={formatCount(t.abandoned)}
          current={t.abandoned}
          previous={p.abandoned}
          upIsGood={false}
          hint={`Tasa ${formatRate(dropOutRate(t.abandoned, t.ended))}`}
          onOpen={() => open('abandoned', 'Tratamientos abandonados')}
        />
        <StatCard
          label="Abandonos tempranos"
          value={formatCount(t.earlyDropouts)}
          current={t.earlyDropouts}
          previous={p.earlyDropouts}
          upIsGood={false}
          hint="Con 3 sesiones o menos"
          onOpen={() => open('early_dropouts', 'Abandonos tempranos')}
        />
        <StatCard label="Duración mediana" value={num(t.medianDays, 'días')} current={t.medianDays} previous={p.medianDays} />
        <StatCard
          label="Sesiones por tratamiento"
          value={num(t.medianSessions, 'sesiones')}
          hint="Mediana"
          current={t.medianSessions}
          previous={p.medianSessions}
        />
        <StatCard
          label="Vuelven a reservar"
          value={formatRate(rate(t.rebooked, t.completedSessions))}
          hint={`${formatCount(t.rebooked)} de ${plural(t.completedSessions, 'sesión realizada', 'sesiones realizadas')}`}
        />
      </StatGrid>
      <Card>
        <CardHeader>
          <CardTitle>Abandono por motivo de consulta</CardTitle>
        </CardHeader>
        <CardContent className="overflow-x-auto">
          {byMotive.length === 0 ? (
            <p className="text-sm text-muted-foreground">Ningún tratamiento terminó en este periodo.</p>
          ) : (
            <StatsTable
              columns={['Motivo', 'Finalizados', 'Abandonos', 'Tasa de abandono']}
              rows={byMotive.map((m) => ({
                key: m.key,
                head: analyticsKeyLabel('motive', m.key),
                cells: [formatCount(m.ended), formatCount(m.abandoned), formatRate(dropOutRate(m.abandoned, m.ended))],
              }))}
            />
          )}
        </CardContent>
      </Card>
    </div>
  );
}
