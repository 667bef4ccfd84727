import { useState } from 'react';
import type { HistoryEntry } from '@divan/core';
import { formatDate, formatTime } from '@/lib/format';
import { cn } from '@/lib/cn';
import { useRevisions } from '../api/history-api';
import { Modal } from '@/components/ui/modal';
import { Skeleton } from '../components/skeleton';
import { LoadError } from '@/components/ui/states';
import { sanitizeHistoryHtml } from '@/components/rich-text/safe-html';
import '@/components/rich-text/rich-text.css';

/** Every earlier version of an entry, oldest first, with who replaced it and when. */
export function RevisionsDialog({
  wid,
  pid,
  entry,
  onClose,
}: {
  wid: string;
  pid: string;
  entry: HistoryEntry | null;
  onClose: () => void;
}) {
  const revisions = useRevisions(wid, pid, entry?.id ?? null);
  const [selected, setSelected] = useState(0);
  const list = revisions.data ?? [];
  const current = list[selected];

  return (
    <Modal
      open={!!entry}
      onOpenChange={(o) => !o && onClose()}
      size="xl"
      title="Historial de cambios"
      description={entry ? `«${entry.title}»: versiones anteriores` : undefined}
    >
      {revisions.isError ? (
        <LoadError error={revisions.error} onRetry={() => void revisions.refetch()} what="las versiones" />
      ) : !revisions.data ? (
        <Skeleton className="h-64 w-full" />
      ) : list.length === 0 ? (
        <p className="text-sm text-muted-foreground">Esta entrada no tiene versiones anteriores.</p>
      ) : (
        <div className="grid gap-5 md:grid-cols-[14rem_minmax(0,1fr)]">
          <ol className="grid content-start gap-1" aria-label="Versiones">
            {list.map((r, i) => (
              <li key={r.id}>
                <button
                  type="button"
                  aria-current={i === selected}
                  onClick={() => setSelected(i)}
                  className={cn(
                    'grid w-full gap-0.5 rounded-lg px-3 py-2 text-left text-sm hover:bg-muted',
                    i === selected && 'bg-accent text-accent-foreground',
                  )}
                >
                  <span className="font-medium">Versión {i + 1}</span>
                  <span className="text-[0.8125rem] text-muted-foreground">
                    Sustituida el {formatDate(r.createdAt)} a las {formatTime(r.createdAt)} por {r.editor.name}
                  </span>
                </button>
              </li>
            ))}
          </ol>
          {current ? (
            <article className="grid content-start gap-3 rounded-lg border p-4">
              <header className="grid gap-0.5">
                <h3 className="font-semibold">{current.title}</h3>
                <p className="text-[0.8125rem] text-muted-foreground">Fecha de la entrada: {formatDate(current.date)}</p>
              </header>
              {/* Sanitised by the server with an allow-list before it was stored, and again here (DOMPurify). */}
              <div className="rich-text" dangerouslySetInnerHTML={{ __html: sanitizeHistoryHtml(current.body) }} />
            </article>
          ) : null}
        </div>
      )}
    </Modal>
  );
}
