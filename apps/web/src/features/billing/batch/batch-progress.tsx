import { Link } from 'react-router';
import { CircleCheck, CircleX } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ProgressBar } from '@/components/ui/progress-bar';
import { LoadError } from '@/components/ui/states';
import { isoDateToDmy } from '@/lib/format';
import { useBatch } from '../api/batch-api';

const invoicesLabel = (n: number) => (n === 1 ? '1 factura' : `${n} facturas`);

/** A batch's progress while the job issues it, then its outcome: issued invoices and the patients that failed, with why. */
export function BatchProgress({ wid, id, onAnother }: { wid: string; id: string; onAnother: () => void }) {
  const query = useBatch(wid, id);
  const batch = query.data;
  if (query.isError && !batch) return <LoadError error={query.error} onRetry={() => void query.refetch()} what="el lote" />;

  const finished = batch?.status === 'done' || batch?.status === 'failed';
  const value = batch && batch.total > 0 ? batch.done / batch.total : null;
  const issued = batch?.invoiceIds.length ?? 0;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          {batch?.status === 'done' ? <CircleCheck className="size-5 text-success" aria-hidden /> : batch?.status === 'failed' ? <CircleX className="size-5 text-destructive" aria-hidden /> : null}
          {!batch ? 'Cargando el lote…' : batch.status === 'queued' ? 'En cola…' : batch.status === 'running' ? 'Emitiendo facturas…' : batch.status === 'done' ? 'Lote terminado' : 'El lote no pudo terminar'}
        </CardTitle>
        {batch ? <CardDescription>Sesiones del {isoDateToDmy(batch.from)} al {isoDateToDmy(batch.to)}</CardDescription> : null}
      </CardHeader>
      <CardContent className="grid gap-4">
        <ProgressBar value={finished ? 1 : value} label="Progreso del lote" />
        <p className="text-sm tabular-nums" aria-live="polite">
          {batch ? `${batch.done} de ${batch.total} procesadas · ${invoicesLabel(issued)} emitida${issued === 1 ? '' : 's'}` : ' '}
        </p>
        {batch && batch.errors.length > 0 ? (
          <Alert variant="error">
            <p>{batch.errors.length === 1 ? 'Un paciente no se pudo facturar:' : `${batch.errors.length} pacientes no se pudieron facturar:`}</p>
            <ul className="mt-1 list-disc pl-5">
              {batch.errors.map((e) => (
                <li key={e.patientId}>
                  <Link to={`/patients/${e.patientId}/billing`}>Ver paciente</Link>: {e.message}
                </li>
              ))}
            </ul>
          </Alert>
        ) : null}
        {finished ? (
          <div className="flex flex-wrap gap-2">
            <Button asChild>
              <Link to="/billing?status=issued">Ver facturas emitidas</Link>
            </Button>
            <Button variant="outline" onClick={onAnother}>
              Otro lote
            </Button>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
