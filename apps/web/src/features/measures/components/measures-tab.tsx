import { lazy, Suspense, useState } from 'react';
import { ClipboardList, Send, Stethoscope, TriangleAlert } from 'lucide-react';
import { MEASURES, MEASURE_KEYS, answerProblems, type MeasureKey } from '@divan/core/rules';
import type { MeasureAdministration } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Modal } from '@/components/ui/modal';
import { NativeSelect } from '@/components/ui/native-select';
import { Spinner } from '@/components/ui/spinner';
import { EmptyState, LoadError } from '@/components/ui/states';
import { messageOf } from '@/lib/error-message';
import { formatDate } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useAdministerMeasure, useCancelMeasure, useMeasures, useMeasureTrend, useReviewFlag, useSendMeasure } from '../api/measures-api';
import { AnswerItems, MeasureCopyright } from '@/lib/measures/answer-items';
import { useAnswerSheet } from '@/lib/measures/use-answer-sheet';
import { MeasureSchedules } from './measure-schedules';

const TrendCharts = lazy(() => import('./trend-chart'));

const STATUS: Record<MeasureAdministration['status'], { label: string; variant: 'neutral' | 'accent' | 'warning' | 'outline' }> = {
  sent: { label: 'Pendiente', variant: 'warning' },
  completed: { label: 'Completado', variant: 'accent' },
  cancelled: { label: 'Cancelado', variant: 'outline' },
  expired: { label: 'Caducado', variant: 'neutral' },
};
const measureOptions = MEASURE_KEYS.map((k) => ({ value: k, label: `${MEASURES[k].shortName} · ${MEASURES[k].items.length} preguntas` }));

export type MeasuresTabProps = {
  wid: string;
  patient: { id: string; name: string; hasEmail: boolean };
  canCreate: boolean;
  canUpdate: boolean;
};

/** The patient's «Cuestionarios» tab: send or administer a measure, see flags, trends and every administration. */
export function MeasuresTab({ wid, patient, canCreate, canUpdate }: MeasuresTabProps) {
  const list = useMeasures(wid, patient.id);
  const pending = !!list.data?.some((a) => a.status === 'sent');
  const trend = useMeasureTrend(wid, patient.id, pending);
  const [dialog, setDialog] = useState<'send' | 'session' | null>(null);
  const cancel = useCancelMeasure(wid, patient.id);
  const review = useReviewFlag(wid, patient.id);
  const flags = (list.data ?? []).filter((a) => a.risk.flagged && !a.risk.reviewedAt);

  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold">Cuestionarios</h2>
        {canCreate ? (
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" onClick={() => setDialog('session')}>
              <Stethoscope aria-hidden /> Administrar en sesión
            </Button>
            <Button onClick={() => setDialog('send')}>
              <Send aria-hidden /> Enviar cuestionario
            </Button>
          </div>
        ) : null}
      </div>

      {flags.map((a) => (
        <Alert key={a.id} variant="error" className="flex flex-wrap items-center justify-between gap-3" data-testid="risk-flag">
          <span className="flex items-start gap-2">
            <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
            <span>
              <strong className="font-semibold">Posible riesgo</strong> en {MEASURES[a.measure].shortName} del {formatDate(a.completedAt)}
              {a.risk.items.length ? ` (pregunta ${a.risk.items.join(', ')})` : ''}. Revísalo con el paciente.
            </span>
          </span>
          {canUpdate ? (
            <Button
              size="sm"
              variant="outline"
              loading={review.isPending && review.variables === a.id}
              onClick={() => review.mutate(a.id, { onError: (e) => toast.error(messageOf(e)) })}
            >
              Marcar como revisado
            </Button>
          ) : null}
        </Alert>
      ))}

      <Card>
        <CardHeader>
          <CardTitle>Evolución</CardTitle>
        </CardHeader>
        <CardContent>
          {trend.isError ? (
            <LoadError error={trend.error} onRetry={() => void trend.refetch()} what="la evolución" />
          ) : !trend.data ? (
            <Spinner label="Cargando la evolución" className="justify-center py-10" />
          ) : trend.data.length === 0 ? (
            <p className="text-sm text-muted-foreground">Cuando el paciente complete un cuestionario, verás aquí su evolución.</p>
          ) : (
            <Suspense fallback={<Spinner label="Cargando el gráfico" className="justify-center py-10" />}>
              <TrendCharts lines={trend.data} />
            </Suspense>
          )}
        </CardContent>
      </Card>

      <MeasureSchedules wid={wid} patient={patient} canCreate={canCreate} canUpdate={canUpdate} />

      <section aria-labelledby="measures-list" className="grid gap-3">
        <h3 id="measures-list" className="font-medium">
          Historial
        </h3>
        {list.isError ? (
          <LoadError error={list.error} onRetry={() => void list.refetch()} what="los cuestionarios" />
        ) : !list.data ? (
          <Spinner label="Cargando los cuestionarios" className="justify-center py-10" />
        ) : list.data.length === 0 ? (
          <EmptyState
            icon={<ClipboardList />}
            title="Sin cuestionarios"
            text="Envía un cuestionario validado (PHQ-9, GAD-7, CORE-10…) o adminístralo en sesión para seguir la evolución."
          />
        ) : (
          <ul className="grid divide-y rounded-lg border bg-card" data-testid="measures-list">
            {list.data.map((a) => {
              const main = a.scores?.[0];
              return (
                <li key={a.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3">
                  <span className="min-w-24 font-medium">{MEASURES[a.measure].shortName}</span>
                  <Badge variant={STATUS[a.status].variant}>{STATUS[a.status].label}</Badge>
                  <span className="text-sm text-muted-foreground">
                    {a.completedAt ? formatDate(a.completedAt) : `Enviado el ${formatDate(a.sentAt)}`}
                    {a.mode === 'session' ? ' · en sesión' : ''}
                  </span>
                  {a.scores ? (
                    <span className="text-sm" data-testid="score">
                      {a.scores
                        .filter((s) => s.band !== null)
                        .map(
                          (s) =>
                            `${a.scores!.length > 1 ? `${MEASURES[a.measure].scales.find((x) => x.key === s.key)?.label}: ` : ''}${s.value} (${s.band})`,
                        )
                        .join(' · ') || `${main?.value}`}
                    </span>
                  ) : null}
                  {a.risk.flagged ? <Badge variant="destructive">{a.risk.reviewedAt ? 'Riesgo revisado' : 'Riesgo'}</Badge> : null}
                  {a.status === 'sent' && canUpdate ? (
                    <Button
                      size="sm"
                      variant="ghost"
                      className="ml-auto"
                      loading={cancel.isPending && cancel.variables === a.id}
                      onClick={() => cancel.mutate(a.id, { onError: (e) => toast.error(messageOf(e)) })}
                    >
                      Cancelar envío
                    </Button>
                  ) : null}
                </li>
              );
            })}
          </ul>
        )}
      </section>

      {dialog === 'send' ? <SendDialog wid={wid} patient={patient} onClose={() => setDialog(null)} /> : null}
      {dialog === 'session' ? <SessionDialog wid={wid} patientId={patient.id} onClose={() => setDialog(null)} /> : null}
    </div>
  );
}

function SendDialog({ wid, patient, onClose }: { wid: string; patient: MeasuresTabProps['patient']; onClose: () => void }) {
  const [measure, setMeasure] = useState<MeasureKey>('phq9');
  const send = useSendMeasure(wid, patient.id);
  const [link, setLink] = useState<string | null>(null);
  return (
    <Modal
      open
      onOpenChange={(o) => !o && onClose()}
      title="Enviar cuestionario"
      description={`${patient.name} recibirá por email un enlace personal que caduca a los 7 días y solo sirve una vez.`}
      size="sm"
      footer={
        link ? (
          <Button onClick={onClose}>Hecho</Button>
        ) : (
          <>
            <Button variant="outline" onClick={onClose}>
              Cancelar
            </Button>
            <Button
              loading={send.isPending}
              disabled={!patient.hasEmail}
              onClick={() =>
                send.mutate(measure, {
                  onSuccess: (a) => {
                    setLink(a.link);
                    toast.success('Cuestionario enviado');
                  },
                })
              }
            >
              <Send aria-hidden /> Enviar
            </Button>
          </>
        )
      }
    >
      <div className="grid gap-4">
        {!patient.hasEmail ? (
          <Alert variant="info">El paciente no tiene email. Añádelo en su ficha o administra el cuestionario en sesión.</Alert>
        ) : null}
        <label className="grid gap-1.5 text-sm font-medium">
          Cuestionario
          <NativeSelect
            value={measure}
            options={measureOptions}
            onChange={(e) => setMeasure(e.target.value as MeasureKey)}
            disabled={!!link}
            name="measure"
          />
        </label>
        <MeasureCopyright measure={MEASURES[measure]} />
        {send.isError ? <Alert variant="error">{messageOf(send.error)}</Alert> : null}
        {link ? (
          <Alert variant="success">
            Enviado. También puedes copiar el enlace:{' '}
            <input
              readOnly
              value={link}
              aria-label="Enlace del cuestionario"
              className="mt-2 w-full rounded border bg-card px-2 py-1 text-xs"
              onFocus={(e) => e.target.select()}
            />
          </Alert>
        ) : null}
      </div>
    </Modal>
  );
}

function SessionDialog({ wid, patientId, onClose }: { wid: string; patientId: string; onClose: () => void }) {
  const [measure, setMeasure] = useState<MeasureKey>('phq9');
  const m = MEASURES[measure];
  const { answers, missing, answered, answer, reset, markMissing } = useAnswerSheet(m.items.length);
  const administer = useAdministerMeasure(wid, patientId);
  const choose = (k: MeasureKey) => {
    setMeasure(k);
    reset(MEASURES[k].items.length);
  };
  const submit = () => {
    const problems = answerProblems(m, answers);
    if (problems.length) {
      markMissing(problems);
      return;
    }
    administer.mutate(
      { measure, answers },
      {
        onSuccess: () => {
          toast.success('Cuestionario guardado');
          onClose();
        },
      },
    );
  };
  return (
    <Modal
      open
      onOpenChange={(o) => !o && onClose()}
      title="Administrar en sesión"
      description="Marca la respuesta del paciente a cada pregunta. Se puntúa al guardar."
      size="lg"
      modalLock={answered > 0}
      footer={
        <>
          <span className="mr-auto text-sm text-muted-foreground" aria-live="polite">
            {answered} de {m.items.length} respondidas
          </span>
          <Button variant="outline" onClick={onClose}>
            Cancelar
          </Button>
          <Button loading={administer.isPending} onClick={submit}>
            Guardar
          </Button>
        </>
      }
    >
      <div className="grid gap-4">
        <label className="grid gap-1.5 text-sm font-medium">
          Cuestionario
          <NativeSelect value={measure} options={measureOptions} onChange={(e) => choose(e.target.value as MeasureKey)} name="measure" />
        </label>
        <p className="text-sm text-muted-foreground">{m.instructions}</p>
        {missing.size ? <Alert variant="error">Responde todas las preguntas antes de guardar.</Alert> : null}
        {administer.isError ? <Alert variant="error">{messageOf(administer.error)}</Alert> : null}
        <AnswerItems measure={m} answers={answers} idPrefix="session" missing={missing} onAnswer={answer} />
        <MeasureCopyright measure={m} />
      </div>
    </Modal>
  );
}
