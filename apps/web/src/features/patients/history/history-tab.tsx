import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { FileUp, NotebookPen, Plus } from 'lucide-react';
import type { HistoryEntry } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { formatDate } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useDeleteEntry, useHistory, useImportDocx } from '../api/history-api';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ProgressBar } from '../components/progress-bar';
import { Skeleton } from '../components/skeleton';
import { EmptyState, LoadError } from '../components/states';
import { usePatientDetail } from '../detail/patient-context';
import { useWorkspaceScope } from '../api/workspace';
import { messageOf } from '../utils/errors';
import { EntryCard } from './entry-card';
import { RevisionsDialog } from './revisions-dialog';

const loadDialog = () => import('./entry-editor-dialog');
const EntryEditorDialog = lazy(() => loadDialog().then((m) => ({ default: m.EntryEditorDialog })));

export function HistoryTab() {
  const { patient, wid, can } = usePatientDetail();
  const { userId } = useWorkspaceScope();
  const history = useHistory(wid, patient.id);
  const remove = useDeleteEntry(wid, patient.id);
  const importDocx = useImportDocx(wid, patient.id);
  const [editing, setEditing] = useState<HistoryEntry | 'new' | null>(null);
  const [deleting, setDeleting] = useState<HistoryEntry | null>(null);
  const [revisionsOf, setRevisionsOf] = useState<HistoryEntry | null>(null);
  const [importProgress, setImportProgress] = useState<number | null>(null);
  const [importError, setImportError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const canCreate = can('create', 'patient_histories');

  // The editor is heavy: fetch it while the therapist reads, so "Nueva entrada" opens at once.
  useEffect(() => {
    if (!canCreate) return;
    const id = setTimeout(() => void loadDialog().then((m) => m.loadEditor()), 600);
    return () => clearTimeout(id);
  }, [canCreate]);

  const onDocx = (file: File | undefined) => {
    if (fileInput.current) fileInput.current.value = '';
    if (!file) return;
    setImportError(null);
    setImportProgress(0);
    importDocx.mutate(
      { file, onProgress: setImportProgress },
      {
        onSuccess: (entry) => toast.success(`«${entry.title}» añadida a la historia clínica`),
        onError: (e) => setImportError(messageOf(e)),
        onSettled: () => setImportProgress(null),
      },
    );
  };

  const actions = canCreate ? (
    <>
      <input ref={fileInput} type="file" accept=".docx,application/vnd.openxmlformats-officedocument.wordprocessingml.document" className="sr-only" tabIndex={-1} aria-label="Archivo Word (.docx)" onChange={(e) => onDocx(e.target.files?.[0])} />
      <Button variant="outline" loading={importDocx.isPending} onClick={() => fileInput.current?.click()}>
        {importDocx.isPending ? null : <FileUp aria-hidden />} Importar Word (.docx)
      </Button>
      <Button onClick={() => setEditing('new')} onPointerEnter={() => void loadDialog()}>
        <Plus aria-hidden /> Nueva entrada
      </Button>
    </>
  ) : null;

  const entries = history.data;
  return (
    <div className="grid gap-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground">Las entradas se cifran y cada consulta queda registrada.</p>
        <div className="flex flex-wrap gap-2">{actions}</div>
      </div>
      {importProgress !== null ? (
        <div className="grid gap-1.5 rounded-lg border bg-card p-3 text-sm">
          <span>Importando documento…</span>
          <ProgressBar value={importProgress < 1 ? importProgress : null} label="Importando documento Word" />
        </div>
      ) : null}
      {importError ? <Alert variant="error">{importError}</Alert> : null}

      {history.isError && !entries ? (
        <LoadError error={history.error} onRetry={() => void history.refetch()} what="la historia clínica" />
      ) : !entries ? (
        <div className="grid gap-4" aria-busy="true" aria-label="Cargando historia clínica">
          <Skeleton className="h-40 w-full rounded-xl" />
          <Skeleton className="h-40 w-full rounded-xl" />
        </div>
      ) : entries.length === 0 ? (
        <div className="rounded-xl border border-dashed bg-card">
          <EmptyState
            icon={<NotebookPen aria-hidden />}
            title="Sin entradas todavía"
            text="Escribe la primera nota de sesión o importa un documento de Word con la historia que ya tienes."
          >
            {actions}
          </EmptyState>
        </div>
      ) : (
        <ol className="grid gap-4" aria-label="Entradas de la historia clínica">
          {entries.map((entry) => (
            <li key={entry.id}>
              <EntryCard
                entry={entry}
                onEdit={can('update', 'patient_histories') ? () => setEditing(entry) : null}
                onDelete={can('delete', 'patient_histories') ? () => setDeleting(entry) : null}
                onRevisions={() => setRevisionsOf(entry)}
              />
            </li>
          ))}
        </ol>
      )}

      {editing ? (
        <Suspense fallback={null}>
          <EntryEditorDialog
            wid={wid}
            pid={patient.id}
            target={editing}
            onClose={() => setEditing(null)}
            canChangePrivacy={(entry) => !entry || entry.author.id === userId}
          />
        </Suspense>
      ) : null}
      <RevisionsDialog key={revisionsOf?.id ?? 'none'} wid={wid} pid={patient.id} entry={revisionsOf} onClose={() => setRevisionsOf(null)} />
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="¿Eliminar esta entrada?"
        description={`Se eliminará «${deleting?.title ?? ''}» del ${formatDate(deleting?.date)} y su historial de cambios. No se puede deshacer.`}
        confirmLabel="Eliminar entrada"
        onConfirm={async () => {
          if (!deleting) return;
          await remove.mutateAsync(deleting.id);
          toast.success('Entrada eliminada');
        }}
      />
    </div>
  );
}

export { HistoryTab as Component };
