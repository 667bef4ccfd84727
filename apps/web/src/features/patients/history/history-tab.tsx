import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { FileUp, NotebookPen, Plus } from 'lucide-react';
import type { HistoryDraft, HistoryEntry } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { formatDate, formatTime } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useSearchParams } from 'react-router';
import { deleteDraft, draftsKey, useDeleteEntry, useDrafts, useHistory, useImportDocx, useNoteSession } from '../api/history-api';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ProgressBar } from '@/components/ui/progress-bar';
import { Skeleton } from '../components/skeleton';
import { EmptyState, LoadError } from '@/components/ui/states';
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
  const canUpdate = can('update', 'patient_histories');
  const drafts = useDrafts(wid, patient.id, canCreate || canUpdate);
  const [discarding, setDiscarding] = useState<HistoryDraft | null>(null);
  const qc = useQueryClient();
  const draftFor = (target: HistoryEntry | 'new') => drafts.data?.find((d) => d.entryId === (target === 'new' ? null : target.id)) ?? null;
  // Drafts of entries no longer listed (deleted, or hidden now) are not offered.
  const openDrafts = (drafts.data ?? []).filter((d) =>
    d.entryId === null ? canCreate : canUpdate && history.data?.some((e) => e.id === d.entryId),
  );
  const targetOf = (d: HistoryDraft): HistoryEntry | 'new' | null =>
    d.entryId === null ? 'new' : (history.data?.find((e) => e.id === d.entryId) ?? null);

  // "Escribir nota" from a session (?session=id): its note if written, else a new entry linked to it.
  const [params, setParams] = useSearchParams();
  const noteSessionId = params.get('session');
  const noteSession = useNoteSession(wid, noteSessionId);
  const [noteFor, setNoteFor] = useState<NonNullable<typeof noteSession.data> | null>(null);
  useEffect(() => {
    if (!noteSessionId || !history.data || (!noteSession.data && !noteSession.isError)) return;
    const dropParam = () =>
      setParams(
        (p) => {
          p.delete('session');
          return p;
        },
        { replace: true },
      );
    const written = history.data.find((e) => e.sessionId === noteSessionId);
    if (written) {
      if (can('update', 'patient_histories')) setEditing(written);
    } else if (noteSession.data && noteSession.data.patient.id === patient.id && canCreate) {
      setNoteFor(noteSession.data);
      setEditing('new');
    } else toast.error(noteSession.isError ? messageOf(noteSession.error) : 'No puedes escribir la nota de esa sesión aquí.');
    dropParam();
  }, [noteSessionId, history.data, noteSession.data, noteSession.isError, noteSession.error, patient.id, canCreate, can, setParams]);

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
      <input
        ref={fileInput}
        type="file"
        accept=".docx,application/vnd.openxmlformats-officedocument.wordprocessingml.document"
        className="sr-only"
        tabIndex={-1}
        aria-label="Archivo Word (.docx)"
        onChange={(e) => onDocx(e.target.files?.[0])}
      />
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
      {openDrafts.length && !editing ? (
        <ul className="grid gap-2" aria-label="Borradores sin guardar">
          {openDrafts.map((d) => (
            <li
              key={d.entryId ?? 'new'}
              className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-primary/30 bg-primary/5 px-4 py-3 text-sm"
            >
              <span>
                Tienes un borrador sin guardar del {formatDate(d.updatedAt)} {formatTime(d.updatedAt)}
                {d.entryId ? ' (cambios en una entrada)' : ''}
                {d.title.trim() ? `: «${d.title.trim()}»` : ''}
              </span>
              <span className="flex gap-2">
                <Button size="sm" onClick={() => setEditing(targetOf(d))}>
                  Continuar
                </Button>
                <Button size="sm" variant="ghost" onClick={() => setDiscarding(d)}>
                  Descartar
                </Button>
              </span>
            </li>
          ))}
        </ul>
      ) : null}

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

      {/* Opened once the drafts are known, so autosave never writes over a draft not yet shown. */}
      {editing && (drafts.data || drafts.isError || !drafts.isEnabled) ? (
        <Suspense fallback={null}>
          <EntryEditorDialog
            wid={wid}
            pid={patient.id}
            target={editing}
            draft={draftFor(editing)}
            onClose={() => {
              setEditing(null);
              setNoteFor(null);
            }}
            canChangePrivacy={(entry) => !entry || entry.author.id === userId}
            session={editing === 'new' ? (noteFor ?? undefined) : undefined}
          />
        </Suspense>
      ) : null}
      <ConfirmDialog
        open={!!discarding}
        onOpenChange={(o) => !o && setDiscarding(null)}
        title="¿Descartar el borrador?"
        description="Se perderá el texto que no llegaste a guardar."
        cancelLabel="Conservar"
        confirmLabel="Descartar"
        onConfirm={async () => {
          if (!discarding) return;
          await deleteDraft(wid, patient.id, discarding.entryId);
          await qc.invalidateQueries({ queryKey: draftsKey(wid, patient.id) });
          toast.success('Borrador descartado');
        }}
      />
      <RevisionsDialog
        key={revisionsOf?.id ?? 'none'}
        wid={wid}
        pid={patient.id}
        entry={revisionsOf}
        onClose={() => setRevisionsOf(null)}
      />
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="¿Eliminar esta entrada?"
        description={`«${deleting?.title ?? ''}» del ${formatDate(deleting?.date)} dejará de verse en la historia clínica. Por ley se conserva oculta, con su historial de cambios, hasta que acabe el plazo de conservación, y la eliminación queda en el registro de actividad.`}
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
