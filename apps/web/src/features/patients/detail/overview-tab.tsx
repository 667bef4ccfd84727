import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Clock, FolderOpen, NotebookPen, Stethoscope, UserRound } from 'lucide-react';
import { ENDING_REASON, formatPhone, MODALITY, normalizePhone, SESSION_TYPE, TREATMENT_MOTIVE } from '@divan/core';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatCurrency, formatDate } from '@/lib/format';
import { StatusBadge } from '../components/status-badge';
import { labelOf, plural, timeAgo } from '../utils/format';
import { usePatientDetail } from './patient-context';

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-[0.8125rem] text-muted-foreground">{label}</dt>
      <dd className="text-sm font-medium">{children || <span className="font-normal text-muted-foreground">Sin indicar</span>}</dd>
    </div>
  );
}

function Stat({ icon, label, value, to }: { icon: ReactNode; label: string; value: string; to?: string }) {
  const body = (
    <span className="flex items-center gap-3 p-4">
      <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-accent text-accent-foreground [&_svg]:size-5">{icon}</span>
      <span className="grid">
        <span className="text-lg font-semibold tabular-nums">{value}</span>
        <span className="text-[0.8125rem] text-muted-foreground">{label}</span>
      </span>
    </span>
  );
  return (
    <Card className={to ? 'transition-colors hover:border-primary/40' : undefined}>
      {to ? (
        <Link to={to} className="block rounded-xl">
          {body}
        </Link>
      ) : (
        body
      )}
    </Card>
  );
}

/** `tasks`: the member's tasks about this patient, composed by app/ (features do not import each other). */
export function OverviewTab({ tasks }: { tasks?: ReactNode }) {
  const { patient, can } = usePatientDetail();
  const t = patient.treatment;
  const showHistory = can('read', 'patient_histories');
  const showDocuments = can('read', 'patient_documents');

  return (
    <div className="grid gap-6">
      <div className="grid gap-4 sm:grid-cols-3">
        {showHistory ? (
          <Stat
            icon={<NotebookPen aria-hidden />}
            label="Historia clínica"
            value={plural(patient.counts.historyEntries ?? 0, 'entrada', 'entradas')}
            to="../history"
          />
        ) : null}
        {showDocuments ? (
          <Stat
            icon={<FolderOpen aria-hidden />}
            label="Documentos"
            value={plural(patient.counts.documents ?? 0, 'documento', 'documentos')}
            to="../documents"
          />
        ) : null}
        <Stat
          icon={<Clock aria-hidden />}
          label={`Última actividad · ${formatDate(patient.lastActivityAt)}`}
          value={timeAgo(patient.lastActivityAt)}
        />
      </div>

      {tasks}

      {t ? (
        <Card>
          <CardHeader className="flex-row items-center justify-between">
            <CardTitle className="flex items-center gap-2">
              <Stethoscope className="size-4 text-primary" aria-hidden /> Tratamiento
            </CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
              <Item label="Estado">
                <StatusBadge status={t.status} />
              </Item>
              <Item label="Inicio">{formatDate(t.startDate)}</Item>
              {t.status === 'inactive' ? <Item label="Fin">{formatDate(t.endDate)}</Item> : null}
              {t.status === 'inactive' ? <Item label="Motivo de finalización">{labelOf(ENDING_REASON, t.endingReason)}</Item> : null}
              <Item label="Motivo de consulta">{labelOf(TREATMENT_MOTIVE, t.motive)}</Item>
              <Item label="Tipo de sesión">{labelOf(SESSION_TYPE, t.sessionType)}</Item>
              <Item label="Modalidad">{labelOf(MODALITY, t.sessionModality)}</Item>
              <Item label="Precio por sesión">{t.sessionPrice !== null ? formatCurrency(t.sessionPrice) : null}</Item>
            </dl>
          </CardContent>
        </Card>
      ) : null}

      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <UserRound className="size-4 text-primary" aria-hidden /> Contacto
          </CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
            <Item label="Email">
              {patient.email ? (
                <a href={`mailto:${patient.email}`} className="text-primary hover:underline">
                  {patient.email}
                </a>
              ) : null}
            </Item>
            <Item label="Teléfono">
              {patient.phone ? (
                <a
                  href={`tel:${normalizePhone(patient.phone) ?? patient.phone.replace(/\s/g, '')}`}
                  className="text-primary hover:underline"
                >
                  {formatPhone(patient.phone)}
                </a>
              ) : null}
            </Item>
            <Item label="Fecha de nacimiento">{formatDate(patient.birthdate)}</Item>
            <Item label="En Diván desde">{formatDate(patient.createdAt)}</Item>
          </dl>
        </CardContent>
      </Card>
    </div>
  );
}

export { OverviewTab as Component };
