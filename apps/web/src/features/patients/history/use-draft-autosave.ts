import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { HistoryDraft, HistoryDraftBody } from '@divan/core';
import { deleteDraft, draftsKey, putDraft } from '../api/history-api';

export type DraftStatus = 'idle' | 'saving' | 'saved' | 'error';

/**
 * Autosave of an entry being written: the latest text goes to the server a moment after the last
 * keystroke (never to browser storage: on a shared computer the next user could read it). Writes are
 * sent one after another, so an older one never lands after a newer one. `null` means "nothing worth
 * keeping" (the text is back to what was saved): the draft is removed.
 */
export function useDraftAutosave(wid: string, pid: string, entryId: string | null, delayMs = 800) {
  const qc = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const pending = useRef<{ body: HistoryDraftBody | null } | null>(null);
  const chain = useRef<Promise<void>>(Promise.resolve());
  const inFlight = useRef(0);
  const [status, setStatus] = useState<DraftStatus>('idle');
  const [savedAt, setSavedAt] = useState<string | null>(null);

  const setCached = useCallback(
    (draft: HistoryDraft | null) =>
      qc.setQueryData<HistoryDraft[]>(draftsKey(wid, pid), (list) => {
        const others = (list ?? []).filter((d) => d.entryId !== entryId);
        return draft ? [draft, ...others] : others;
      }),
    [qc, wid, pid, entryId],
  );

  /** Sends what is waiting now; resolves once every write so far has settled. */
  const flush = useCallback((): Promise<void> => {
    clearTimeout(timer.current);
    const next = pending.current;
    pending.current = null;
    if (next) {
      setStatus('saving');
      inFlight.current++;
      chain.current = chain.current.then(async () => {
        try {
          if (next.body) {
            const draft = await putDraft(wid, pid, entryId, next.body);
            setCached(draft);
            setSavedAt(draft.updatedAt);
          } else {
            await deleteDraft(wid, pid, entryId);
            setCached(null);
            setSavedAt(null);
          }
          setStatus(pending.current ? 'saving' : 'saved');
        } catch {
          setStatus('error');
        } finally {
          inFlight.current--;
        }
      });
    }
    return chain.current;
  }, [wid, pid, entryId, setCached]);

  const schedule = useCallback(
    (body: HistoryDraftBody | null) => {
      pending.current = { body };
      setStatus('saving');
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void flush(), delayMs);
    },
    [flush, delayMs],
  );

  /** Drops what is waiting and removes the draft from the server. */
  const discard = useCallback(async () => {
    clearTimeout(timer.current);
    pending.current = null;
    await chain.current;
    await deleteDraft(wid, pid, entryId);
    setCached(null);
    setStatus('idle');
  }, [wid, pid, entryId, setCached]);

  // Text typed just before the dialog unmounts still goes to the server.
  useEffect(() => () => void flush(), [flush]);

  // Leaving the page with text not yet on the server: the browser asks first.
  useEffect(() => {
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (!pending.current && !inFlight.current && status !== 'error') return;
      void flush();
      e.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [flush, status]);

  return { schedule, flush, discard, status, savedAt };
}
