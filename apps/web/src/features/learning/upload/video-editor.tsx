import { useMemo, useState, type ChangeEvent } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { IMAGE_MAX_BYTES, LEARNING_UPLOAD_MAX_BYTES, type LearningAdminVideo } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { useConfirmDiscard } from '@/components/ui/confirm-discard';
import { Field } from '@/components/ui/field';
import { isApiError } from '@/lib/api-client';
import { applyApiError } from '@/lib/form-errors';
import { toast } from '@/lib/toast';
import { learningKeys } from '../api/keys';
import { CardArt } from '../components/video-card';
import { adminCalls } from './admin-api';
import { FilePicker } from './file-picker';
import { emptyVideoForm, formOfVideo, VIDEO_FORM_FIELDS, videoFormSchema, type VideoFormValues } from './video-form-model';
import { VideoFields } from './video-fields';

type Body = z.output<typeof videoFormSchema>;
// What the server keeps as a public image with transparency (no SVG: a script inside would be served to everyone).
const ICON_TYPES = ['image/png', 'image/webp'];

/** The server's `priceCents` is the form's `price`. */
function placeError(error: unknown, setError: Parameters<typeof applyApiError<VideoFormValues>>[1]) {
  if (isApiError(error)) for (const f of error.fields) if (f.path.replace(/^body\./, '') === 'priceCents') f.path = 'price';
  return applyApiError(error, setError, { learning_content_exists: 'title' }, VIDEO_FORM_FIELDS);
}

/**
 * A new video or one to change: its fields (POST or PATCH), then its icon; the file chosen here is handed to
 * the tool's upload (`onSaved`), which sends it in pieces beside the list. Typed work is asked about first.
 */
export function VideoEditor({
  token,
  video,
  uploadBusy,
  onSaved,
  onClose,
}: {
  token: string;
  video: LearningAdminVideo | null;
  /** Another upload is running: one at a time. */
  uploadBusy: boolean;
  onSaved: (video: LearningAdminVideo, file: File | null) => void;
  onClose: () => void;
}) {
  const qc = useQueryClient();
  const calls = useMemo(() => adminCalls(token), [token]);
  // Once created, a retry changes that video instead of creating another.
  const [saved, setSaved] = useState<LearningAdminVideo | null>(video);
  const form = useForm<VideoFormValues, unknown, Body>({
    resolver: zodResolver(videoFormSchema),
    defaultValues: video ? formOfVideo(video) : emptyVideoForm(),
  });
  const [icon, setIcon] = useState<{ file: File; url: string } | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<{ icon?: string; file?: string }>({});
  const [formError, setFormError] = useState<string | null>(null);
  const { isDirty, isSubmitting } = form.formState;
  const discard = useConfirmDiscard(isDirty || !!icon || !!file);
  const colour = form.watch('colour');

  const pickIcon = (e: ChangeEvent<HTMLInputElement>) => {
    const f = e.target.files?.[0] ?? null;
    if (icon) URL.revokeObjectURL(icon.url);
    const problem = !f
      ? undefined
      : !ICON_TYPES.includes(f.type)
        ? 'Sube un PNG o un WebP con fondo transparente.'
        : f.size > IMAGE_MAX_BYTES
          ? 'El icono no puede pesar más de 2 MB.'
          : undefined;
    setFileError((x) => ({ ...x, icon: problem }));
    setIcon(f && !problem ? { file: f, url: URL.createObjectURL(f) } : null);
  };
  const pickFile = (e: ChangeEvent<HTMLInputElement>) => {
    const f = e.target.files?.[0] ?? null;
    const problem = f && f.size > LEARNING_UPLOAD_MAX_BYTES ? 'El archivo es demasiado grande (máximo 8 GB).' : undefined;
    setFileError((x) => ({ ...x, file: problem }));
    setFile(f && !problem ? f : null);
  };

  const onSubmit = form.handleSubmit(async (body) => {
    setFormError(null);
    let current = saved;
    try {
      if (!current || isDirty) {
        current = current ? await calls.update(current.id, body) : await calls.create(body);
        setSaved(current);
        form.reset(formOfVideo(current));
      }
      if (icon) {
        current = await calls.icon(current.id, icon.file);
        URL.revokeObjectURL(icon.url);
        setIcon(null);
      }
      toast.success(file ? 'Vídeo guardado: subiendo el archivo' : 'Vídeo guardado');
      discard.release();
      onSaved(current, file);
    } catch (error) {
      setFormError(placeError(error, form.setError));
    } finally {
      void qc.invalidateQueries({ queryKey: learningKeys.admin() });
    }
  });

  const title = video ? `Editar «${video.title}»` : 'Nuevo vídeo';
  return (
    <FormProvider {...form}>
      <Card>
        <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label={title}>
          <CardHeader>
            <CardTitle>{title}</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_16rem]">
            <VideoFields />
            <div className="grid content-start gap-5">
              <div className="overflow-hidden rounded-lg border" role="img" aria-label="Vista previa de la tarjeta">
                <CardArt card={{ colour, iconUrl: icon?.url ?? saved?.iconUrl ?? null }} className="aspect-video" />
              </div>
              <Field label="Icono transparente" error={fileError.icon} hint="PNG o WebP con fondo transparente, hasta 2 MB">
                <FilePicker
                  kind="image"
                  accept="image/png,image/webp"
                  file={icon?.file ?? null}
                  onChange={pickIcon}
                  chooseLabel="Elegir icono"
                  changeLabel="Cambiar icono"
                />
              </Field>
              <Field
                label="Archivo de vídeo"
                error={fileError.file}
                hint={
                  uploadBusy
                    ? 'Hay otra subida en curso: espera a que termine.'
                    : saved?.hasFile
                      ? 'Ya tiene un archivo: elige otro para reemplazarlo.'
                      : 'MP4 o MOV, hasta 8 GB. Se sube por partes y se puede reanudar.'
                }
              >
                <FilePicker
                  accept="video/*"
                  file={file}
                  onChange={pickFile}
                  disabled={uploadBusy}
                  chooseLabel="Elegir vídeo"
                  changeLabel="Cambiar vídeo"
                />
              </Field>
            </div>
          </CardContent>
          {formError ? (
            <div className="px-5 pb-4 sm:px-6">
              <Alert variant="error">{formError}</Alert>
            </div>
          ) : null}
          <CardFooter>
            <Button type="button" variant="ghost" disabled={isSubmitting} onClick={() => discard.confirm(onClose)}>
              Cerrar
            </Button>
            <Button type="submit" loading={isSubmitting}>
              {file ? 'Guardar y subir' : 'Guardar'}
            </Button>
          </CardFooter>
        </form>
      </Card>
      {discard.dialog}
    </FormProvider>
  );
}
