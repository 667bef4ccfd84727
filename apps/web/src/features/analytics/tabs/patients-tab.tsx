import { useAnalyticsTab } from '../api/analytics-api';
import { Breakdown } from '../components/breakdown';
import { StatCard, StatGrid } from '../components/stat-card';
import { TabStates } from '../components/tab-states';
import { formatCount } from '../utils/figures';
import type { TabProps } from './tab-props';

export function PatientsTab({ workspaceId, filter, open }: TabProps) {
  const q = useAnalyticsTab(workspaceId, 'patients', filter);
  if (!q.data) return <TabStates q={q} what="los pacientes" />;
  const s = q.data;
  const { totals: t, previous: p, statusNow } = s;
  return (
    <div className="grid gap-6">
      <StatGrid>
        <StatCard
          label="Pacientes nuevos"
          value={formatCount(t.added)}
          current={t.added}
          previous={p.added}
          onOpen={() => open('added', 'Pacientes nuevos')}
        />
        <StatCard
          label="Atendidos"
          value={formatCount(t.seen)}
          current={t.seen}
          previous={p.seen}
          hint="Con alguna sesión en el periodo"
          onOpen={() => open('seen', 'Pacientes atendidos')}
        />
        {t.discharged !== null ? (
          <StatCard
            label="Altas"
            value={formatCount(t.discharged)}
            current={t.discharged}
            previous={p.discharged}
            hint="Tratamientos finalizados"
            onOpen={() => open('discharged', 'Altas del periodo')}
          />
        ) : null}
        {statusNow ? (
          <StatCard
            label="Activos hoy"
            value={formatCount(statusNow.active)}
            hint={`En pausa ${formatCount(statusNow.paused)} · Inactivos ${formatCount(statusNow.inactive)}`}
          />
        ) : null}
      </StatGrid>
      <div className="grid gap-6 lg:grid-cols-2">
        <Breakdown title="Motivo de consulta" kind="motive" items={s.byMotive} />
        <Breakdown title="Altas por motivo de finalización" kind="endingReason" items={s.dischargedByReason} />
        <Breakdown title="Procedencia" kind="referralSource" items={s.byReferralSource} />
        <Breakdown title="Tipo de sesión" kind="sessionType" items={s.bySessionType} />
        <Breakdown title="Edad" kind="ageBand" items={s.byAgeBand} />
        <Breakdown title="Género" kind="gender" items={s.byGender} />
      </div>
    </div>
  );
}
