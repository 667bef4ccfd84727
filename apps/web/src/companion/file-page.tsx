import { lazy, Suspense, useEffect, useState } from 'react';
import type { PatientFile } from '@divan/core';
import { ChatPanel } from './chat-panel';
import { filesApi } from './api';
import { asFailure, messageOf } from './errors';
import { PageFrame } from './frame';
import { useCounters } from './live';
import { navigate } from './nav';
import { hrefOf, type Section } from './router';
import { Alert, Button, CountBadge, cx, ErrorState, FocusHeading, Initial, Link, ListSkeleton } from './ui';
import { useLoad } from '../public-kit/use-load';

/** The sections a connected file shows, as their routes exist on the server (the rest come later). */
const TABS: { section: Section; label: string }[] = [
  { section: 'chat', label: 'Chat' },
  { section: 'sesiones', label: 'Sesiones' },
  { section: 'documentos', label: 'Documentos' },
  { section: 'consentimientos', label: 'Consentimientos' },
  { section: 'facturas', label: 'Facturas' },
];

// Sections other than the chat load when opened.
const SessionsSection = lazy(() => import('./sessions-section').then((m) => ({ default: m.SessionsSection })));
const DocumentsSection = lazy(() => import('./documents-section').then((m) => ({ default: m.DocumentsSection })));
const ConsentsSection = lazy(() => import('./consents-section').then((m) => ({ default: m.ConsentsSection })));
const InvoicesSection = lazy(() => import('./invoices-section').then((m) => ({ default: m.InvoicesSection })));

/** `/p/:fileId[/:section]`: one connected file — whose it is, its sections, and disconnecting it. */
export function FilePage({ fileId, section }: { fileId: string; section: Section | null }) {
  const files = useLoad('files', (signal) => filesApi.list(signal));
  const file = files.data?.find((f) => f.patientFileId === fileId);
  const counters = useCounters();
  const current = TABS.find((t) => t.section === section)?.section ?? TABS[0]!.section;
  const back = { href: hrefOf(), label: 'Mis fichas' };
  // On a phone the tabs scroll sideways: the open one is kept in sight (a reload on «Facturas» too).
  const loaded = !!file;
  useEffect(() => {
    if (loaded)
      document.querySelector('nav[aria-label="Secciones"] [aria-current="page"]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [loaded, current]);

  if (files.failure)
    return (
      <PageFrame title="Ficha" back={back}>
        <ErrorState message={messageOf(files.failure)} retry={files.retry} />
      </PageFrame>
    );
  if (!files.data)
    return (
      <PageFrame title="Ficha" back={back}>
        <ListSkeleton rows={3} />
      </PageFrame>
    );
  if (!file)
    return (
      <PageFrame title="Ficha no encontrada" back={back}>
        <ErrorState title="Ficha no encontrada" message={messageOf({ code: 'patient_file_not_found', message: '' })} />
        <Link href={hrefOf()}>Volver a mis fichas</Link>
      </PageFrame>
    );
  const therapist = file.therapistNames[0] ?? file.workspaceName;
  return (
    <PageFrame title={file.workspaceName} back={back}>
      <div className="flex items-center gap-3">
        <Initial name={file.workspaceName} className="size-11 text-lg" />
        <div className="min-w-0">
          <FocusHeading className="truncate text-[1.375rem] sm:text-[1.75rem]">{file.workspaceName}</FocusHeading>
          <p className="truncate text-sm text-muted-foreground">{file.therapistNames.join(', ') || 'Sin terapeuta asignado'}</p>
        </div>
      </div>
      {TABS.length > 1 ? (
        <nav aria-label="Secciones" className="-mx-4 overflow-x-auto px-4">
          <ul className="flex w-max min-w-full gap-1 border-b">
            {TABS.map((t) => (
              <li key={t.section}>
                <Link
                  href={hrefOf(fileId, t.section)}
                  aria-current={t.section === current ? 'page' : undefined}
                  className={cx(
                    'inline-flex min-h-11 items-center gap-1.5 whitespace-nowrap border-b-2 px-3 text-[0.9375rem] no-underline hover:no-underline',
                    t.section === current
                      ? 'border-primary font-semibold text-foreground'
                      : 'border-transparent text-muted-foreground hover:text-foreground',
                  )}
                >
                  {t.label}
                  {t.section === 'chat' ? <CountBadge count={counters[fileId] ?? 0} /> : null}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : (
        <h2 className="sr-only">Chat</h2>
      )}
      {current === 'chat' ? <ChatPanel key={fileId} fileId={fileId} therapist={therapist} /> : null}
      <Suspense fallback={<ListSkeleton rows={2} />}>
        {current === 'sesiones' ? <SessionsSection key={fileId} fileId={fileId} /> : null}
        {current === 'documentos' ? <DocumentsSection key={fileId} fileId={fileId} /> : null}
        {current === 'consentimientos' ? <ConsentsSection key={fileId} fileId={fileId} /> : null}
        {current === 'facturas' ? <InvoicesSection key={fileId} fileId={fileId} /> : null}
      </Suspense>
      <Disconnect file={file} />
    </PageFrame>
  );
}

/** «Desconectar esta ficha», asked first: the therapist keeps the file, the patient stops seeing it here. */
function Disconnect({ file }: { file: PatientFile }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await filesApi.disconnect(file.patientFileId);
      navigate(hrefOf(), { replace: true });
    } catch (e) {
      setError(messageOf(asFailure(e)));
      setBusy(false);
    }
  };
  if (!asking)
    return (
      <div className="pt-2">
        <Button variant="ghost" className="text-sm text-muted-foreground" onClick={() => setAsking(true)}>
          Desconectar esta ficha
        </Button>
      </div>
    );
  return (
    <section
      role="alertdialog"
      aria-labelledby="disconnect-title"
      aria-describedby="disconnect-text"
      className="grid gap-3 rounded-2xl border border-destructive/30 bg-card p-4"
    >
      <FocusHeading level={2} id="disconnect-title" className="text-lg">
        ¿Desconectar tu ficha de {file.workspaceName}?
      </FocusHeading>
      <p id="disconnect-text" className="text-[0.9375rem] text-muted-foreground">
        Dejarás de ver aquí tus sesiones, documentos, facturas y el chat con {file.therapistNames[0] ?? 'tu terapeuta'}. Tu terapeuta
        conserva tu ficha y puede volver a invitarte.
      </p>
      {error ? <Alert>{error}</Alert> : null}
      <div className="flex flex-wrap gap-2">
        <Button variant="danger" loading={busy} onClick={() => void confirm()}>
          Desconectar
        </Button>
        <Button variant="outline" onClick={() => setAsking(false)} disabled={busy}>
          Cancelar
        </Button>
      </div>
    </section>
  );
}
