import { useState } from 'react';
import { KeyRound, Plus, Video } from 'lucide-react';
import type { LearningAdminVideo } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { NoAccess } from '@/components/ui/no-access';
import { PasswordInput } from '@/components/ui/password-input';
import { PageSpinner } from '@/components/ui/spinner';
import { EmptyState, LoadError } from '@/components/ui/states';
import { isApiError } from '@/lib/api-client';
import { usePageTitle } from '@/lib/use-page-title';
import { AdminList } from '../upload/admin-list';
import { useLearningAccess } from '../api/access';
import { keepUploadToken, readUploadToken, useAdminVideos } from '../upload/admin-api';
import { UploadPanel } from '../upload/upload-panel';
import { PurchaseRefunds } from '../upload/purchase-refunds';
import { useUploadJob } from '../upload/use-upload-job';
import { VideoEditor } from '../upload/video-editor';

const TOKEN_CODES = new Set(['learning_upload_token', 'learning_upload_disabled', 'learning_staff_only']);

/** /learn/_upload: Diván's staff tool (the upload token, the list, a video's editor). Refused to everyone else. */
export function UploadRoute() {
  usePageTitle('Subir vídeos', 'Formación');
  const access = useLearningAccess();
  if (access.isError) return <LoadError what="el acceso a la herramienta" error={access.error} onRetry={() => void access.refetch()} />;
  if (!access.data) return <PageSpinner />;
  if (!access.data.staff) return <NoAccess title="La herramienta de subida es solo para el equipo de Diván" />;
  return <UploadTool configured={access.data.uploadConfigured} />;
}

function UploadTool({ configured }: { configured: boolean }) {
  const [token, setToken] = useState(readUploadToken);
  const [typed, setTyped] = useState(token);
  // null: the list; 'new': a new video; else the one being edited.
  const [editing, setEditing] = useState<LearningAdminVideo | 'new' | null>(null);
  const [view, setView] = useState<'videos' | 'refunds'>('videos');
  const list = useAdminVideos(configured ? token : '');
  const upload = useUploadJob(token);
  const tokenRefused = list.isError && isApiError(list.error) && TOKEN_CODES.has(list.error.code);

  const applyToken = (value: string) => {
    keepUploadToken(value.trim());
    setToken(value.trim());
  };

  return (
    <div className="grid gap-6">
      <header className="grid gap-1">
        <h1 className="font-display text-3xl font-semibold tracking-tight">Subir vídeos</h1>
        <p className="max-w-prose text-sm text-muted-foreground">
          Herramienta interna del equipo de Diván: crea los vídeos de la biblioteca, sube sus archivos y publícalos.
        </p>
      </header>
      {!configured ? (
        <Alert variant="error">La subida de vídeos no está configurada en este servidor (LEARNING_UPLOAD_TOKEN).</Alert>
      ) : null}

      <Card>
        <CardContent>
          <form
            className="flex flex-col gap-3 sm:flex-row sm:items-start"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              applyToken(typed);
            }}
          >
            <Field
              className="flex-1"
              label="Token de subida"
              error={tokenRefused ? list.error.message : undefined}
              hint="Se guarda solo en esta pestaña mientras esté abierta."
            >
              <PasswordInput autoComplete="off" value={typed} onChange={(e) => setTyped(e.target.value)} disabled={!configured} />
            </Field>
            <Button type="submit" variant="outline" className="sm:mt-7" disabled={!configured || !typed.trim()}>
              <KeyRound aria-hidden /> Usar este token
            </Button>
          </form>
        </CardContent>
      </Card>

      {upload.job ? <UploadPanel job={upload.job} onCancel={upload.cancel} onResume={upload.resume} onDismiss={upload.dismiss} /> : null}

      {token && configured && !editing && !tokenRefused ? (
        <div role="tablist" aria-label="Secciones de la herramienta" className="flex gap-1 rounded-lg border bg-card p-1 sm:w-fit">
          {(
            [
              ['videos', 'Vídeos'],
              ['refunds', 'Reembolsos'],
            ] as const
          ).map(([id, label]) => (
            <button
              key={id}
              type="button"
              role="tab"
              aria-selected={view === id}
              onClick={() => setView(id)}
              className={`min-h-10 flex-1 rounded-md px-4 text-sm font-medium transition-colors sm:flex-none ${
                view === id ? 'bg-accent text-accent-foreground' : 'text-muted-foreground hover:bg-muted'
              }`}
            >
              {label}
            </button>
          ))}
        </div>
      ) : null}

      {!token || !configured ? null : view === 'refunds' && !editing ? (
        <PurchaseRefunds token={token} />
      ) : editing ? (
        <VideoEditor
          key={editing === 'new' ? 'new' : editing.id}
          token={token}
          video={editing === 'new' ? null : editing}
          uploadBusy={upload.job?.state === 'uploading'}
          onSaved={(video, file) => {
            setEditing(null);
            if (file) void upload.start(video, file);
          }}
          onClose={() => setEditing(null)}
        />
      ) : list.isError && !tokenRefused ? (
        <LoadError what="los vídeos" error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data ? (
        <section className="grid gap-4" aria-label="Vídeos">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 className="text-lg font-semibold">Vídeos</h2>
            <Button onClick={() => setEditing('new')}>
              <Plus aria-hidden /> Nuevo vídeo
            </Button>
          </div>
          {list.data.items.length ? (
            <AdminList token={token} items={list.data.items} onEdit={setEditing} />
          ) : (
            <div className="rounded-xl border bg-card">
              <EmptyState
                icon={<Video aria-hidden />}
                title="Todavía no hay vídeos"
                text="Crea el primero: después podrás subir su archivo y publicarlo."
              />
            </div>
          )}
        </section>
      ) : tokenRefused ? null : (
        <PageSpinner />
      )}
    </div>
  );
}

export { UploadRoute as Component };
