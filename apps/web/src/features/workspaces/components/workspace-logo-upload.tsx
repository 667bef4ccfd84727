import { useRef, useState } from 'react';
import { ImageUp, Trash2 } from 'lucide-react';
import { IMAGE_TYPES, type Workspace } from '@divan/core';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { isApiError } from '@/lib/api-client';
import { imageProblem } from '@/lib/image-file';
import { toast } from '@/lib/toast';
import { useDeleteWorkspaceLogo, useUploadWorkspaceLogo } from '../api/workspaces-api';
import { WorkspaceLogo } from './workspace-logo';

/** The square logo shown in the switcher and on the workspace's documents. */
export function WorkspaceLogoUpload({ workspace, canEdit }: { workspace: Workspace; canEdit: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadWorkspaceLogo(workspace.id);
  const remove = useDeleteWorkspaceLogo(workspace.id);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const onFile = async (file: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!file) return;
    setError(null);
    const problem = await imageProblem(file, { square: true });
    if (problem) return setError(problem);
    upload.mutate(file, {
      onSuccess: () => toast.success('Logo actualizado'),
      onError: (e) => setError(isApiError(e) ? e.message : 'No se pudo subir la imagen.'),
    });
  };

  return (
    <div className="flex items-start gap-4">
      <WorkspaceLogo name={workspace.name} url={workspace.logoUrl} className="size-20 rounded-xl text-3xl" />
      <div className="grid min-w-0 gap-2">
        <div>
          <p className="text-sm font-medium">Logo del espacio</p>
          <p id="workspace-logo-hint" className="text-[0.8125rem] text-muted-foreground">
            {canEdit
              ? 'Imagen cuadrada, PNG, JPG o WebP, hasta 2 MB. Sin logo mostramos la inicial del nombre.'
              : workspace.logoUrl
                ? 'El logo del espacio.'
                : 'Este espacio aún no tiene logo: mostramos la inicial de su nombre.'}
          </p>
        </div>
        {canEdit ? (
          <>
            <input
              ref={input}
              id="workspace-logo-file"
              type="file"
              accept={IMAGE_TYPES.join(',')}
              className="sr-only"
              tabIndex={-1}
              aria-describedby="workspace-logo-hint"
              aria-label="Logo del espacio: elegir archivo"
              onChange={(e) => void onFile(e.target.files?.[0])}
            />
            <div className="flex flex-wrap gap-2">
              <Button type="button" variant="outline" size="sm" loading={upload.isPending} onClick={() => input.current?.click()}>
                {upload.isPending ? null : <ImageUp aria-hidden />}
                {workspace.logoUrl ? 'Cambiar' : 'Subir logo'}
              </Button>
              {workspace.logoUrl ? (
                <Button type="button" variant="ghost" size="sm" onClick={() => setConfirming(true)}>
                  <Trash2 aria-hidden /> Eliminar
                </Button>
              ) : null}
            </div>
          </>
        ) : null}
        {error ? (
          <p role="alert" className="text-[0.8125rem] font-medium text-destructive">
            {error}
          </p>
        ) : null}
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="¿Eliminar el logo?"
        description="El espacio volverá a mostrarse con la inicial de su nombre. Podrás subir otro cuando quieras."
        confirmLabel="Eliminar logo"
        onConfirm={async () => {
          await remove.mutateAsync();
          toast.success('Logo eliminado');
        }}
      />
    </div>
  );
}
