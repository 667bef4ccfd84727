import { Link } from 'react-router';
import { CircleCheck, CircleX, TriangleAlert } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ProgressBar } from '@/components/ui/progress-bar';
import { LoadError } from '@/components/ui/states';
import { isoDateToDmy } from '@/lib/format';
import { useBatch } from '../api/batch-api';
import { batchOutcome } from '../utils/batch-outcome';

const ICONS = {
  success: <CircleCheck className="size-5 text-success" aria-hidden />,
  warning: <TriangleAlert className="size-5 text-amber-600" aria-hidden />,
  error: <CircleX className="size-5 text-destructive" aria-hidden />,
  progress: null,
} as const;

/** A batch's progress while the job issues it, then its outcome: issued invoices and the patients left out, by name, with why. */
export function BatchProgress({ wid, id, onAnother }: { wid: string; id: string; onAnother: () => void }) {
  const query = useBatch(wid, id);
  const batch = query.data;
  if (query.isError && !batch) return <LoadError error={query.error} onRetry={() => void query.refetch()} what="el lote" />;

  const outcome = batchOutcome(batch);
  const finished = batch?.status === 'done' || batch?.status === 'failed';
  const value = batch && batch.total > 0 ? batch.done / batch.total : null;
  const issued = batch?.invoiceIds.length ?? 0;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          {ICONS[outcome.tone]}
          {outcome.title}
        </CardTitle>
        {batch ? (
          <CardDescription>
            Sesiones del {isoDateToDmy(batch.from)} al {isoDateToDmy(batch.to)}
          </CardDescription>
        ) : null}
      </CardHeader>
      <CardContent className="grid gap-4">
        <ProgressBar value={finished ? 1 : value} label="Progreso del lote" />
        <p className="text-sm tabular-nums" aria-live="polite">
          {outcome.summary || ' '}
        </p>
        {batch && batch.errors.length > 0 ? (
          <Alert variant="error">
            <p>{batch.errors.length === 1 ? 'Una factura no se pudo emitir:' : `${batch.errors.length} facturas no se pudieron emitir:`}</p>
            <ul className="mt-1 grid list-disc gap-1 pl-5">
              {batch.errors.map((e, i) =>
                e.patientName !== null ? (
                  <li key={`${e.patientId}:${i}`}>
                    <Link to={`/patients/${e.patientId}/billing`}>{e.patientName || 'Paciente sin nombre'}</Link>: {e.message}
                  </li>
                ) : (
                  <li key={`${e.patientId}:${i}`}>{e.message}</li>
                ),
              )}
            </ul>
          </Alert>
        ) : null}
        {finished ? (
          <div className="flex flex-wrap gap-2">
            {issued > 0 ? (
              <Button asChild>
                <Link to="/billing?status=issued">Ver facturas emitidas</Link>
              </Button>
            ) : null}
            <Button variant={issued > 0 ? 'outline' : 'default'} onClick={onAnother}>
              Otro lote
            </Button>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
