import { useRef, useState, type DragEvent } from 'react';
import { FileSpreadsheet } from 'lucide-react';
import { IMPORT_MAX_MB, IMPORT_MAX_ROWS, type ImportUpload } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { useUploadImport } from '../api/import-api';
import { ProgressBar } from '@/components/ui/progress-bar';
import { messageOf } from '../utils/errors';
import { formatCount, formatFileSize } from '../utils/format';

const XLSX = '.xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export function UploadStep({ wid, onUploaded, onCancel }: { wid: string; onUploaded: (u: ImportUpload) => void; onCancel: () => void }) {
  const upload = useUploadImport(wid);
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [over, setOver] = useState(false);

  const send = (f: File | undefined) => {
    if (!f) return;
    setFile(f);
    setError(null);
    if (!/\.xlsx$/i.test(f.name))
      return setError('Elige un archivo de Excel (.xlsx). Si lo tienes en .xls o .csv, ábrelo en Excel y guárdalo como .xlsx.');
    if (f.size > IMPORT_MAX_MB * 1024 * 1024) return setError(`El archivo supera el tamaño máximo de ${IMPORT_MAX_MB} MB.`);
    setProgress(0);
    upload.mutate({ file: f, onProgress: setProgress }, { onSuccess: onUploaded, onError: (e) => setError(messageOf(e)) });
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    send(e.dataTransfer.files[0]);
  };

  return (
    <div className="grid gap-5">
      <div
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        className={cn(
          'grid justify-items-center gap-3 rounded-xl border-2 border-dashed px-6 py-10 text-center',
          over ? 'border-primary bg-accent/60' : 'border-input',
        )}
      >
        <FileSpreadsheet className="size-8 text-primary" aria-hidden />
        <p className="text-sm">Arrastra aquí tu Excel o</p>
        <Button variant="outline" onClick={() => input.current?.click()} disabled={upload.isPending}>
          Elegir archivo .xlsx
        </Button>
        <p className="text-[0.8125rem] text-muted-foreground">
          Hasta {IMPORT_MAX_MB} MB y {formatCount(IMPORT_MAX_ROWS)} pacientes. Nada se importa hasta que lo confirmes.
        </p>
        <input
          ref={input}
          type="file"
          accept={XLSX}
          className="sr-only"
          tabIndex={-1}
          aria-label="Archivo de Excel"
          onChange={(e) => {
            send(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
      </div>
      {file && (upload.isPending || error) ? (
        <div className="grid gap-2 rounded-lg border bg-card p-3 text-sm">
          <div className="flex items-center justify-between gap-3">
            <span className="truncate font-medium">{file.name}</span>
            <span className="shrink-0 text-muted-foreground">{formatFileSize(file.size)}</span>
          </div>
          {upload.isPending ? (
            <>
              <ProgressBar value={progress < 1 ? progress : null} label="Subiendo el archivo" />
              <span className="text-[0.8125rem] text-muted-foreground">
                {progress < 1 ? `Subiendo… ${Math.round(progress * 100)} %` : 'Leyendo el archivo…'}
              </span>
            </>
          ) : null}
        </div>
      ) : null}
      {error ? <Alert variant="error">{error}</Alert> : null}
      <div className="flex justify-end">
        <Button variant="ghost" onClick={onCancel}>
          Cancelar
        </Button>
      </div>
    </div>
  );
}
