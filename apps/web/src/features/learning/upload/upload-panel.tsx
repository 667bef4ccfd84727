import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ProgressBar } from '@/components/ui/progress-bar';
import type { UploadJob } from './use-upload-job';

const mb = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 1 });
/** 1 234 567 890 → «1.177,4 MB». */
export const megabytes = (bytes: number) => `${mb.format(bytes / 1024 / 1024)} MB`;

export const uploadTexts = {
  uploading: 'Subiendo',
  done: 'Archivo subido: el vídeo se está procesando y podrás publicarlo cuando termine.',
  canceled: 'Subida cancelada. Lo recibido se conserva: puedes continuarla desde donde se quedó.',
} as const;

/** The upload in progress (or just finished): a real bar, «Cancelar subida», and a resume after a failure. */
export function UploadPanel({
  job,
  onCancel,
  onResume,
  onDismiss,
}: {
  job: UploadJob;
  onCancel: () => void;
  onResume: () => void;
  onDismiss: () => void;
}) {
  const share = job.size ? job.received / job.size : 0;
  const stopped = job.state === 'failed' || job.state === 'canceled';
  return (
    <section aria-label="Subida del archivo" className="grid gap-3 rounded-xl border bg-card p-4 shadow-xs sm:p-5">
      <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
        <p className="min-w-0">
          <span className="font-medium">«{job.title}»</span> <span className="text-muted-foreground">· {job.file.name}</span>
        </p>
        <p className="tabular-nums text-muted-foreground" aria-live="polite">
          {megabytes(job.received)} de {megabytes(job.size)} · {Math.floor(share * 100)} %
        </p>
      </div>
      <ProgressBar value={share} label="Progreso de la subida" />
      {job.state === 'done' ? <Alert variant="success">{uploadTexts.done}</Alert> : null}
      {job.state === 'canceled' ? <Alert>{uploadTexts.canceled}</Alert> : null}
      {job.state === 'failed' ? <Alert variant="error">{job.error}</Alert> : null}
      <div className="flex flex-wrap gap-2">
        {job.state === 'uploading' ? (
          <Button type="button" variant="outline" size="sm" onClick={onCancel}>
            Cancelar subida
          </Button>
        ) : null}
        {stopped ? (
          <Button type="button" size="sm" onClick={onResume}>
            Continuar la subida
          </Button>
        ) : null}
        {job.state !== 'uploading' ? (
          <Button type="button" variant="ghost" size="sm" onClick={onDismiss}>
            Cerrar aviso
          </Button>
        ) : null}
      </div>
    </section>
  );
}
