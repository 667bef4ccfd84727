import { useEffect } from 'react';
import type { PatientFile } from '@divan/core';
import { chatApi, filesApi } from './api';
import { messageOf } from './errors';
import { PageFrame } from './frame';
import { setCounters, useCounters } from './live';
import { hrefOf } from './router';
import { useSession } from './session';
import { SignIn } from './sign-in';
import { CountBadge, EmptyState, ErrorState, FocusHeading, Initial, Link, ListSkeleton } from './ui';
import { useLoad } from '../public-kit/use-load';

/** `/p/`: «Entrar» when signed out; signed in, the connected files as cards, unread messages on each. */
export function HomePage() {
  const session = useSession();
  return (
    <PageFrame title={session ? 'Mis fichas' : 'Entrar'}>
      {session ? <Files firstName={session.profile.firstName} /> : <SignIn />}
    </PageFrame>
  );
}

function Files({ firstName }: { firstName: string }) {
  const files = useLoad('files', (signal) => filesApi.list(signal));
  const counters = useCounters();
  // The socket greets with the counters too; this read covers a socket not yet (or no longer) open.
  useEffect(() => {
    const ctrl = new AbortController();
    chatApi.counters(ctrl.signal).then(setCounters, () => undefined);
    return () => ctrl.abort();
  }, []);
  return (
    <>
      <div className="grid gap-1">
        <FocusHeading>Hola, {firstName}</FocusHeading>
        <p className="text-[0.9375rem] text-muted-foreground">
          Tus terapeutas en Diván. Entra en una ficha para ver tus sesiones, documentos y mensajes.
        </p>
      </div>
      {files.failure ? (
        <ErrorState message={messageOf(files.failure)} retry={files.retry} />
      ) : !files.data ? (
        <ListSkeleton />
      ) : files.data.length === 0 ? (
        <EmptyState title="Aún no tienes ninguna ficha conectada">
          Cuando tu terapeuta te invite, recibirás un email con un enlace para conectar. Ábrelo en este dispositivo.
        </EmptyState>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2" aria-label="Fichas conectadas">
          {files.data.map((f) => (
            <li key={f.patientFileId}>
              <FileCard file={f} unread={counters[f.patientFileId] ?? 0} />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function FileCard({ file, unread }: { file: PatientFile; unread: number }) {
  const therapists = file.therapistNames.join(', ');
  return (
    <Link
      href={hrefOf(file.patientFileId)}
      data-testid="file-card"
      className="flex min-h-24 items-center gap-3 rounded-2xl border bg-card p-4 text-foreground no-underline shadow-sm transition-colors hover:border-primary/40 hover:bg-accent/40 hover:no-underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
    >
      <Initial name={file.workspaceName} className="size-12 text-xl" />
      <span className="grid min-w-0 flex-1 gap-0.5">
        <span className="truncate font-semibold">{file.workspaceName}</span>
        <span className="truncate text-sm text-muted-foreground">{therapists || 'Sin terapeuta asignado'}</span>
      </span>
      <CountBadge count={unread} testId="file-unread" />
      <span aria-hidden className="text-xl text-muted-foreground">
        ›
      </span>
    </Link>
  );
}
