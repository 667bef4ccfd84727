import { useState } from 'react';
import { Link } from 'react-router';
import { CalendarPlus, ChevronLeft, ChevronRight, RotateCw } from 'lucide-react';
import type { PatientSessionTotals } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { messageOf } from '@/lib/error-message';
import { formatCurrency } from '@/lib/format';
import { usePatientSessions } from '../api/agenda-api';
import { links } from '../utils/session-labels';
import { SessionRow } from './session-row';

type Props = {
  workspaceId: string;
  patient: { id: string; name: string; active: boolean };
  userId: string;
  canCreate: boolean;
  canWriteNotes: boolean;
};

function Totals({ totals: t }: { totals: PatientSessionTotals }) {
  const items = [
    { label: 'Realizadas', value: String(t.attended) },
    { label: 'Próximas', value: String(t.upcoming) },
    {
      label: 'Canceladas',
      value: String(t.canceled),
      hint: [t.noShows ? `${t.noShows} sin presentarse` : '', t.lateCancellations ? `${t.lateCancellations} tardías` : '']
        .filter(Boolean)
        .join(' · '),
    },
    { label: 'Pendientes de pago', value: String(t.pendingPayment), hint: t.pendingPayment ? formatCurrency(t.pendingPaymentAmount) : '' },
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      {items.map((i) => (
        <Card key={i.label} className="grid gap-0.5 p-4">
          <dt className="text-[0.8125rem] text-muted-foreground">{i.label}</dt>
          <dd className="font-display text-2xl font-semibold tabular-nums">{i.value}</dd>
          {i.hint ? <dd className="text-[0.8125rem] text-muted-foreground">{i.hint}</dd> : null}
        </Card>
      ))}
    </dl>
  );
}

/** The patient's `sessions` tab: totals, then every session newest first, 25 a page. */
export function PatientSessionsTab({ workspaceId: wid, patient, userId, canCreate, canWriteNotes }: Props) {
  const [page, setPage] = useState(1);
  const q = usePatientSessions(wid, patient.id, page);
  const data = q.data;
  const pages = data ? Math.max(1, Math.ceil(data.totals.total / data.pageSize)) : 1;

  const create =
    canCreate && patient.active ? (
      <Button asChild>
        <Link to={links.newSession(patient.id)}>
          <CalendarPlus aria-hidden /> Nueva sesión
        </Link>
      </Button>
    ) : null;

  return (
    <div className="grid gap-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground">
          {canCreate && !patient.active
            ? 'El paciente no está activo: no se le pueden crear sesiones.'
            : 'Las sesiones del paciente, de la más reciente a la más antigua.'}
        </p>
        {create}
      </div>
      {q.isError && !data ? (
        <Alert variant="error" className="flex flex-wrap items-center justify-between gap-3">
          <span>No se pudieron cargar las sesiones. {messageOf(q.error)}</span>
          <Button variant="outline" size="sm" onClick={() => void q.refetch()}>
            <RotateCw aria-hidden /> Reintentar
          </Button>
        </Alert>
      ) : !data ? (
        <div className="flex items-center gap-2 py-8 text-sm text-muted-foreground" aria-busy="true">
          <Spinner /> Cargando sesiones…
        </div>
      ) : data.totals.total === 0 ? (
        <Card className="grid justify-items-center gap-2 border-dashed px-6 py-12 text-center">
          <h2 className="text-base font-semibold">Sin sesiones todavía</h2>
          <p className="max-w-sm text-sm text-muted-foreground">
            Cuando programes sesiones con {patient.name}, aparecerán aquí con su estado y su pago.
          </p>
          {create ? <div className="mt-2">{create}</div> : null}
        </Card>
      ) : (
        <>
          <Totals totals={data.totals} />
          <Card className="px-4 sm:px-5">
            <ol className="divide-y" aria-label={`Sesiones de ${patient.name}`} aria-busy={q.isFetching}>
              {data.items.map((s) => (
                <SessionRow
                  key={s.id}
                  workspaceId={wid}
                  session={s}
                  show="day"
                  showTherapist={s.therapist.id !== userId}
                  canWriteNotes={canWriteNotes}
                />
              ))}
            </ol>
          </Card>
          {pages > 1 ? (
            <nav className="flex items-center justify-between gap-3 text-sm" aria-label="Páginas de sesiones">
              <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
                <ChevronLeft aria-hidden /> Más recientes
              </Button>
              <span className="text-muted-foreground" aria-live="polite">
                Página {page} de {pages}
              </span>
              <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
                Más antiguas <ChevronRight aria-hidden />
              </Button>
            </nav>
          ) : null}
        </>
      )}
    </div>
  );
}
