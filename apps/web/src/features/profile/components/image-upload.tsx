import { useRef, useState } from 'react';
import { toast } from '@/lib/toast';
import { ImageUp, Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { isApiError } from '@/lib/api-client';
import { imageProblem } from '@/lib/image-file';
import { IMAGE_TYPES } from '@divan/core';
import { useDeleteImage, useUploadImage, type ImageKind } from '../api/profile-api';

type Props = { kind: ImageKind; url: string | null; title: string; description: string; fallback: string };

export function ImageUpload({ kind, url, title, description, fallback }: Props) {
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadImage();
  const remove = useDeleteImage();
  const [error, setError] = useState<string | null>(null);
  const inputId = `${kind}-file`;

  const onFile = async (file: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!file) return;
    setError(null);
    const problem = await imageProblem(file, { square: kind === 'logo' });
    if (problem) return setError(problem);
    upload.mutate(
      { kind, file },
      {
        onSuccess: () => toast.success(kind === 'logo' ? 'Logo actualizado' : 'Foto actualizada'),
        onError: (e) => setError(isApiError(e) ? e.message : 'No se pudo subir la imagen.'),
      },
    );
  };

  const onRemove = () =>
    remove.mutate(kind, {
      onSuccess: () => toast.success(kind === 'logo' ? 'Logo eliminado' : 'Foto eliminada'),
      onError: (e) => setError(isApiError(e) ? e.message : 'No se pudo eliminar la imagen.'),
    });

  return (
    <div className="flex items-start gap-4">
      <div
        className={cn(
          'grid size-20 shrink-0 place-items-center overflow-hidden border bg-muted text-xl font-semibold text-muted-foreground',
          kind === 'picture' ? 'rounded-full' : 'rounded-xl',
        )}
      >
        {url ? <img src={url} alt={title} className="size-full object-cover" /> : <span aria-hidden>{fallback}</span>}
      </div>
      <div className="grid min-w-0 gap-2">
        <div>
          <p className="text-sm font-medium">{title}</p>
          <p id={`${inputId}-hint`} className="text-[0.8125rem] text-muted-foreground">
            {description}
          </p>
        </div>
        <input
          ref={input}
          id={inputId}
          type="file"
          accept={IMAGE_TYPES.join(',')}
          className="sr-only"
          tabIndex={-1}
          aria-describedby={`${inputId}-hint`}
          aria-label={`${title}: elegir archivo`}
          onChange={(e) => void onFile(e.target.files?.[0])}
        />
        <div className="flex flex-wrap gap-2">
          <Button type="button" variant="outline" size="sm" loading={upload.isPending} onClick={() => input.current?.click()}>
            {upload.isPending ? null : <ImageUp aria-hidden />}
            {url ? 'Cambiar' : 'Subir'}
          </Button>
          {url ? (
            <Button type="button" variant="ghost" size="sm" loading={remove.isPending} onClick={onRemove}>
              {remove.isPending ? null : <Trash2 aria-hidden />}
              Eliminar
            </Button>
          ) : null}
        </div>
        {error ? (
          <p role="alert" className="text-[0.8125rem] font-medium text-destructive">
            {error}
          </p>
        ) : null}
      </div>
    </div>
  );
}
