import { useState } from 'react';
import type { CompanionConsent } from '@divan/core';
import { consentsApi, goTo } from './billing-api';
import { consentBadge, consentsInOrder } from './billing-format';
import { asFailure, messageOf } from './errors';
import { formatDate } from './format';
import { saveBlob } from './save-blob';
import { StatusBadge } from './status-badge';
import { Alert, Button, EmptyState, ErrorState, h2Class, ListSkeleton } from './ui';
import { useLoad } from '../public-kit/use-load';

/** «Consentimientos» of a connected file: what waits for the patient's signature first, then the rest. */
export function ConsentsSection({ fileId }: { fileId: string }) {
  const consents = useLoad(`consents/${fileId}`, (signal) => consentsApi.list(fileId, signal));
  const items = consents.data ? consentsInOrder(consents.data) : null;
  const toSign = items?.filter((c) => c.status === 'to_sign').length ?? 0;
  return (
    <section aria-labelledby="consents-title" className="grid gap-3" data-testid="consents">
      <h2 id="consents-title" className={h2Class}>
        Consentimientos
      </h2>
      {consents.failure ? (
        <ErrorState title="No se han podido cargar los consentimientos" message={messageOf(consents.failure)} retry={consents.retry} />
      ) : !items ? (
        <ListSkeleton rows={2} />
      ) : !items.length ? (
        <EmptyState title="No tienes consentimientos">
          Cuando tu terapeuta te envíe un documento para firmar, lo encontrarás aquí.
        </EmptyState>
      ) : (
        <>
          {toSign ? (
            <p className="text-[0.9375rem] text-muted-foreground">
              {toSign === 1 ? 'Tienes 1 documento pendiente de firmar.' : `Tienes ${toSign} documentos pendientes de firmar.`}
            </p>
          ) : null}
          <ul className="grid gap-3">
            {items.map((c) => (
              <ConsentRow key={c.id} fileId={fileId} consent={c} onStale={consents.retry} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function ConsentRow({ fileId, consent: c, onStale }: { fileId: string; consent: CompanionConsent; onStale: () => void }) {
  const [busy, setBusy] = useState<'sign' | 'download' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const badge = consentBadge(c);
  const run = async (what: 'sign' | 'download') => {
    setBusy(what);
    setError(null);
    try {
      if (what === 'sign') {
        goTo(await consentsApi.signLink(fileId, c.id));
        return; // leaving: keep the button busy
      }
      saveBlob(await consentsApi.download(fileId, c.id), `${c.title}.pdf`);
    } catch (e) {
      const failure = asFailure(e);
      setError(messageOf(failure));
      // Its state changed meanwhile (signed elsewhere, expired, annulled): the list reads again later on retry.
      if (failure.status === 409 && what === 'sign') onStale();
    }
    setBusy(null);
  };
  return (
    <li data-testid="consent-row" className="grid gap-3 rounded-xl border bg-card p-4 shadow-xs">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p className="min-w-0 break-words font-medium">{c.title}</p>
        <StatusBadge label={badge.label} tone={badge.tone} testId="consent-status" />
      </div>
      <p className="text-[0.8125rem] text-muted-foreground">{datesOf(c)}</p>
      {error ? <Alert>{error}</Alert> : null}
      {c.status === 'to_sign' || c.canDownload ? (
        <div className="flex flex-wrap gap-2">
          {c.status === 'to_sign' ? (
            <Button loading={busy === 'sign'} disabled={busy !== null} onClick={() => void run('sign')} aria-label={`Firmar ${c.title}`}>
              Firmar
            </Button>
          ) : null}
          {c.canDownload ? (
            <Button
              variant="outline"
              loading={busy === 'download'}
              disabled={busy !== null}
              onClick={() => void run('download')}
              aria-label={`Descargar ${c.title}`}
            >
              Descargar
            </Button>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

/** «Enviado el 03/11/2026 · Firma antes del 10/11/2026», «Firmado el …». */
function datesOf(c: CompanionConsent): string {
  const sent = `Enviado el ${formatDate(c.sentAt)}`;
  if (c.status === 'to_sign') return `${sent} · Firma antes del ${formatDate(c.expiresAt)}`;
  if (c.status === 'signed') return `${sent} · Firmado el ${formatDate(c.completedAt ?? c.signedAt ?? c.sentAt)}`;
  if (c.status === 'waiting' && c.signedAt) return `${sent} · Lo firmaste el ${formatDate(c.signedAt)}`;
  if (c.status === 'expired') return `${sent} · Caducó el ${formatDate(c.expiresAt)}`;
  return sent;
}
