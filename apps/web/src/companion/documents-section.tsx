import { useState } from 'react';
import type { CompanionDocument } from '@divan/core';
import { documentsApi } from './api';
import { asFailure, messageOf } from './errors';
import { formatDate } from './format';
import { formatSize } from './session-format';
import { Alert, Button, EmptyState, ErrorState, h2Class, ListSkeleton } from './ui';
import { useLoad } from '../public-kit/use-load';
import { saveBlob } from './save-blob';

/** «Documentos» of a connected file: what the therapist shared, newest first, each to download. */
export function DocumentsSection({ fileId }: { fileId: string }) {
  const docs = useLoad(`documents/${fileId}`, (signal) => documentsApi.list(fileId, signal));
  return (
    <section aria-labelledby="documents-title" className="grid gap-3" data-testid="documents">
      <h2 id="documents-title" className={h2Class}>
        Documentos compartidos
      </h2>
      {docs.failure ? (
        <ErrorState title="No se han podido cargar los documentos" message={messageOf(docs.failure)} retry={docs.retry} />
      ) : !docs.data ? (
        <ListSkeleton rows={2} />
      ) : !docs.data.length ? (
        <EmptyState title="Aún no hay documentos">Cuando tu terapeuta comparta un documento contigo, lo encontrarás aquí.</EmptyState>
      ) : (
        <ul className="grid gap-3">
          {docs.data.map((d) => (
            <DocumentRow key={d.id} fileId={fileId} doc={d} />
          ))}
        </ul>
      )}
    </section>
  );
}

function DocumentRow({ fileId, doc }: { fileId: string; doc: CompanionDocument }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      saveBlob(await documentsApi.download(fileId, doc.id), doc.name);
    } catch (e) {
      setError(messageOf(asFailure(e)));
    } finally {
      setBusy(false);
    }
  };
  return (
    <li data-testid="document-row" className="grid gap-3 rounded-xl border bg-card p-4 shadow-xs">
      <div className="flex items-start gap-3">
        <span
          aria-hidden
          className="grid size-10 shrink-0 place-items-center rounded-lg bg-accent text-[0.6875rem] font-semibold uppercase text-accent-foreground"
        >
          {extensionOf(doc.name)}
        </span>
        <div className="min-w-0">
          <p className="break-words font-medium">{doc.name}</p>
          <p className="text-[0.8125rem] text-muted-foreground">
            {formatDate(doc.createdAt)} · {formatSize(doc.size)}
          </p>
        </div>
      </div>
      {error ? <Alert>{error}</Alert> : null}
      <div>
        <Button variant="outline" loading={busy} onClick={() => void download()} aria-label={`Descargar ${doc.name}`}>
          Descargar
        </Button>
      </div>
    </li>
  );
}

/** 'PDF' of 'informe.pdf'; 'DOC' when it has none. */
const extensionOf = (name: string) => (/\.([a-z0-9]{1,4})$/i.exec(name)?.[1] ?? 'doc').toUpperCase();
