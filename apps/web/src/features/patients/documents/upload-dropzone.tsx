import { useRef, useState, type DragEvent } from 'react';
import { CircleAlert, Upload, X } from 'lucide-react';
import { DOCUMENT_MAX_MB } from '@divan/core';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { toast } from '@/lib/toast';
import { useUploadDocument } from '../api/documents-api';
import { ProgressBar } from '@/components/ui/progress-bar';
import { messageOf } from '../utils/errors';
import { formatFileSize } from '../utils/format';
import { ACCEPT, uploadProblem } from './document-types';

type Item = { key: string; file: File; progress: number; error: string | null };

/** Drop files or pick them; each uploads in turn with its own progress bar; refusals stay listed with the reason. */
export function UploadDropzone({ wid, pid }: { wid: string; pid: string }) {
  const upload = useUploadDocument(wid, pid);
  const input = useRef<HTMLInputElement>(null);
  const [items, setItems] = useState<Item[]>([]);
  const [over, setOver] = useState(false);
  const queue = useRef(Promise.resolve());

  const patch = (key: string, p: Partial<Item>) => setItems((list) => list.map((i) => (i.key === key ? { ...i, ...p } : i)));

  const add = (files: FileList | File[]) => {
    for (const file of Array.from(files)) {
      const key = `${file.name}-${file.size}-${Math.random().toString(36).slice(2)}`;
      const problem = uploadProblem(file);
      setItems((list) => [...list, { key, file, progress: 0, error: problem }]);
      if (problem) continue;
      queue.current = queue.current.then(() =>
        upload
          .mutateAsync({ file, onProgress: (progress) => patch(key, { progress }) })
          .then((doc) => {
            setItems((list) => list.filter((i) => i.key !== key));
            toast.success(`«${doc.name}» subido`);
          })
          .catch((e: unknown) => patch(key, { error: messageOf(e) })),
      );
    }
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    if (e.dataTransfer.files.length) add(e.dataTransfer.files);
  };

  return (
    <div className="grid gap-3">
      <div
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        className={cn(
          'grid justify-items-center gap-2 rounded-xl border-2 border-dashed bg-card px-6 py-7 text-center transition-colors',
          over ? 'border-primary bg-accent/60' : 'border-input',
        )}
      >
        <Upload className="size-6 text-muted-foreground" aria-hidden />
        <p className="text-sm">
          <span className="hidden sm:inline">Arrastra aquí los archivos o </span>
          <Button variant="link" size="none" className="align-baseline text-sm" onClick={() => input.current?.click()}>
            <span className="sm:hidden">Elegir archivos</span>
            <span className="hidden sm:inline">elígelos en tu equipo</span>
          </Button>
        </p>
        <p className="text-[0.8125rem] text-muted-foreground">
          PDF, imágenes, Word, Excel, ODT o texto · hasta {DOCUMENT_MAX_MB} MB por archivo
        </p>
        <input
          ref={input}
          type="file"
          multiple
          accept={ACCEPT}
          className="sr-only"
          tabIndex={-1}
          aria-label="Subir documentos"
          onChange={(e) => {
            if (e.target.files) add(e.target.files);
            e.target.value = '';
          }}
        />
      </div>
      {items.length ? (
        <ul className="grid gap-2" aria-label="Subidas">
          {items.map((item) => (
            <li key={item.key} className={cn('grid gap-2 rounded-lg border bg-card p-3 text-sm', item.error && 'border-destructive/40')}>
              <div className="flex items-center gap-2">
                {item.error ? <CircleAlert className="size-4 shrink-0 text-destructive" aria-hidden /> : null}
                <span className="min-w-0 flex-1 truncate font-medium">{item.file.name}</span>
                <span className="shrink-0 text-muted-foreground">{formatFileSize(item.file.size)}</span>
                {item.error ? (
                  <button
                    type="button"
                    className="grid size-6 place-items-center rounded text-muted-foreground hover:bg-muted"
                    aria-label={`Descartar ${item.file.name}`}
                    onClick={() => setItems((l) => l.filter((i) => i.key !== item.key))}
                  >
                    <X className="size-4" aria-hidden />
                  </button>
                ) : null}
              </div>
              {item.error ? (
                <p role="alert" className="text-[0.8125rem] font-medium text-destructive">
                  {item.error}
                </p>
              ) : (
                <ProgressBar value={item.progress < 1 ? item.progress : null} label={`Subiendo ${item.file.name}`} />
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
