import { useCallback, useEffect, useRef, useState } from 'react';
import type { PatientDocument } from '@divan/core';
import { messageOf } from '@/lib/error-message';
import { chatAttachmentProblem as attachmentProblem } from '@divan/core';
import { deleteAttachment, uploadAttachment } from './attachment-api';

export type PendingAttachment = {
  key: number;
  file: File;
  /** 0–1 while uploading. */
  progress: number;
  status: 'uploading' | 'ready' | 'error';
  doc: PatientDocument | null;
  error: string | null;
};

/**
 * The file chosen in the composer: uploaded at once as a patient document (with its progress),
 * shared with the patient by the server when the message goes. Taken off before sending, its upload stops or the
 * uploaded document is deleted again (if that fails it simply stays in the patient's documents).
 */
export function useAttachment(wid: string, pid: string) {
  const [pending, setPending] = useState<PendingAttachment | null>(null);
  const controller = useRef<AbortController | null>(null);
  const seq = useRef(0);
  const current = useRef(pending);
  current.current = pending;

  const patch = (key: number, p: Partial<PendingAttachment>) => setPending((a) => (a?.key === key ? { ...a, ...p } : a));

  const discard = useCallback(() => {
    controller.current?.abort();
    controller.current = null;
    const doc = current.current?.doc;
    if (doc) void deleteAttachment(wid, pid, doc.id).catch(() => undefined);
    setPending(null);
  }, [wid, pid]);

  const pick = useCallback(
    (file: File) => {
      discard();
      const key = ++seq.current;
      const problem = attachmentProblem(file);
      setPending({ key, file, progress: 0, status: problem ? 'error' : 'uploading', doc: null, error: problem });
      if (problem) return;
      const c = new AbortController();
      controller.current = c;
      uploadAttachment(wid, pid, file, { signal: c.signal, onProgress: (progress) => patch(key, { progress }) }).then(
        (doc) => {
          if (c.signal.aborted) return void deleteAttachment(wid, pid, doc.id).catch(() => undefined);
          patch(key, { status: 'ready', progress: 1, doc });
        },
        (e: unknown) => {
          if (!c.signal.aborted) patch(key, { status: 'error', error: `No se ha podido subir el archivo. ${messageOf(e)}` });
        },
      );
    },
    [wid, pid, discard],
  );

  /** Just before sending: the document's id for the message (the server shares it with the patient as it sends it). */
  const prepare = useCallback(async (): Promise<string | undefined> => current.current?.doc?.id, []);

  /** Sent: the composer lets go of it (the document stays, attached to the message). */
  const sent = useCallback(() => {
    controller.current = null;
    setPending(null);
  }, []);

  // Leaving the conversation mid-upload stops it.
  useEffect(() => () => controller.current?.abort(), []);

  return { pending, pick, remove: discard, prepare, sent };
}
