import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { CircleAlert, CircleCheck } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { isFinished, useImportProgress } from '../api/import-api';
import { ProgressBar } from '@/components/ui/progress-bar';
import { LoadError } from '@/components/ui/states';
import { formatCount } from '../utils/format';
import { patientKeys } from '../api/keys';

type Props = { wid: string; importId: string; total: number; onDone: () => void; onAgain: () => void };

export function ProgressStep({ wid, importId, total, onDone, onAgain }: Props) {
  const query = useImportProgress(wid, importId);
  const p = query.data;
  const qc = useQueryClient();
  const finished = !!p && isFinished(p);
  useEffect(() => {
    // The list behind the dialog shows the new patients (and its counts) as soon as they are in.
    if (finished) void qc.invalidateQueries({ queryKey: patientKeys.lists(wid) });
  }, [finished, qc, wid]);

  if (query.isError && !p)
    return <LoadError error={query.error} onRetry={() => void query.refetch()} what="el progreso de la importación" />;

  if (!p || !isFinished(p)) {
    const validating = !p || p.status === 'validating';
    const fraction = p && p.total > 0 ? p.processed / p.total : 0;
    return (
      <div className="grid gap-4 py-4" aria-live="polite">
        <p className="text-sm font-medium">{validating ? 'Comprobando las filas…' : 'Guardando los pacientes…'}</p>
        <ProgressBar value={validating ? fraction * 0.9 : null} label="Progreso de la importación" />
        <p className="text-[0.8125rem] tabular-nums text-muted-foreground">
          {formatCount(p?.processed ?? 0)} de {formatCount(p?.total ?? total)} filas comprobadas. Puedes esperar aquí; no cierres esta
          ventana.
        </p>
      </div>
    );
  }

  if (p.status === 'failed') {
    return (
      <div className="grid gap-4">
        <Alert variant="error">{p.message ?? 'La importación no se ha completado. No se ha importado ningún paciente.'}</Alert>
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={onDone}>
            Cerrar
          </Button>
          <Button onClick={onAgain}>Intentarlo de nuevo</Button>
        </div>
      </div>
    );
  }

  const rejected = [...p.errors].sort((a, b) => a.row - b.row);
  return (
    <div className="grid gap-5" aria-live="polite">
      <div className="flex items-center gap-3">
        <CircleCheck className="size-8 shrink-0 text-success" aria-hidden />
        <div className="grid gap-0.5">
          <p className="text-lg font-semibold">
            {p.created === 1 ? '1 paciente importado' : `${formatCount(p.created)} pacientes importados`}
          </p>
          <p className="text-sm text-muted-foreground">
            {rejected.length === 0
              ? 'Todas las filas eran válidas.'
              : `${formatCount(rejected.length)} ${rejected.length === 1 ? 'fila no se ha importado' : 'filas no se han importado'}: corrígelas en el Excel y vuelve a importarlas, o créalas a mano.`}
          </p>
        </div>
      </div>
      {rejected.length ? (
        <section aria-labelledby="rejected-rows" className="grid gap-2">
          <h3 id="rejected-rows" className="flex items-center gap-2 text-sm font-semibold">
            <CircleAlert className="size-4 text-destructive" aria-hidden /> Filas no importadas
          </h3>
          <ul className="max-h-64 divide-y overflow-y-auto rounded-lg border text-sm">
            {rejected.map((e) => (
              <li key={e.row} className="flex gap-3 px-3 py-2">
                <span className="w-16 shrink-0 font-medium tabular-nums">Fila {e.row}</span>
                <span className="text-muted-foreground">{e.reason}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <div className="flex justify-end">
        <Button onClick={onDone}>Ver pacientes</Button>
      </div>
    </div>
  );
}
