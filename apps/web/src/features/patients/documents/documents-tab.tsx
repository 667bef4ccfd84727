import { useState } from 'react';
import { FolderOpen } from 'lucide-react';
import type { PatientDocument } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { toast } from '@/lib/toast';
import { downloadDocument, useDeleteDocument, useDocuments, useShareDocument } from '../api/documents-api';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Skeleton } from '../components/skeleton';
import { EmptyState, LoadError } from '@/components/ui/states';
import { usePatientDetail } from '../detail/patient-context';
import { messageOf } from '../utils/errors';
import { DocumentRow } from './document-row';
import { EditDocumentDialog } from './edit-document-dialog';
import { UploadDropzone } from './upload-dropzone';

export function DocumentsTab() {
  const { patient, wid, can } = usePatientDetail();
  const docs = useDocuments(wid, patient.id);
  const share = useShareDocument(wid, patient.id);
  const remove = useDeleteDocument(wid, patient.id);
  const [editing, setEditing] = useState<{ doc: PatientDocument; focus: 'name' | 'tags' } | null>(null);
  const [deleting, setDeleting] = useState<PatientDocument | null>(null);
  const [error, setError] = useState<string | null>(null);
  const canUpdate = can('update', 'patient_documents');

  const download = (doc: PatientDocument) => {
    setError(null);
    downloadDocument(wid, patient.id, doc).catch((e: unknown) => setError(messageOf(e)));
  };
  const toggleShare = (doc: PatientDocument, shared: boolean) =>
    share.mutate(
      { id: doc.id, shared },
      {
        onSuccess: () => toast.success(shared ? `«${doc.name}» compartido con el paciente` : `«${doc.name}» ya no se comparte`),
        onError: (e) => setError(messageOf(e)),
      },
    );

  const list = docs.data;
  return (
    <div className="grid gap-5">
      {can('create', 'patient_documents') ? <UploadDropzone wid={wid} pid={patient.id} /> : null}
      {error ? <Alert variant="error">{error}</Alert> : null}
      {docs.isError && !list ? (
        <LoadError error={docs.error} onRetry={() => void docs.refetch()} what="los documentos" />
      ) : !list ? (
        <Skeleton className="h-48 w-full rounded-xl" />
      ) : list.length === 0 ? (
        <div className="rounded-xl border bg-card">
          <EmptyState
            icon={<FolderOpen aria-hidden />}
            title="Sin documentos"
            text="Informes, consentimientos escaneados, pruebas… Todo queda cifrado y solo lo ve quien tiene acceso a la ficha."
          />
        </div>
      ) : (
        <ul className="divide-y overflow-hidden rounded-xl border bg-card" aria-label="Documentos">
          {list.map((doc) => (
            <DocumentRow
              key={doc.id}
              doc={doc}
              onDownload={() => download(doc)}
              onShare={canUpdate ? (shared) => toggleShare(doc, shared) : null}
              sharePending={share.isPending && share.variables?.id === doc.id}
              onRename={canUpdate ? () => setEditing({ doc, focus: 'name' }) : null}
              onTags={canUpdate ? () => setEditing({ doc, focus: 'tags' }) : null}
              onDelete={can('delete', 'patient_documents') ? () => setDeleting(doc) : null}
            />
          ))}
        </ul>
      )}
      <EditDocumentDialog
        wid={wid}
        pid={patient.id}
        doc={editing?.doc ?? null}
        focus={editing?.focus ?? 'name'}
        onClose={() => setEditing(null)}
      />
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="¿Eliminar este documento?"
        description={`«${deleting?.name ?? ''}» se borrará para siempre${deleting?.shared ? ' y el paciente dejará de verlo' : ''}.`}
        confirmLabel="Eliminar documento"
        onConfirm={async () => {
          if (!deleting) return;
          await remove.mutateAsync(deleting.id);
          toast.success('Documento eliminado');
        }}
      />
    </div>
  );
}

export { DocumentsTab as Component };
