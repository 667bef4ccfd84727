import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { messageOf } from '@/lib/error-message';
import { useUnsavedChanges } from '@/lib/unsaved-changes';
import { learningKeys } from '../api/keys';
import { adminCalls } from './admin-api';
import { uploadInPieces } from './upload-file';

export type UploadJob = {
  videoId: string;
  title: string;
  file: File;
  received: number;
  size: number;
  state: 'uploading' | 'done' | 'failed' | 'canceled';
  error: string | null;
};

/**
 * The tool's one upload at a time, outside the editor so the list (and its «Procesando…») shows while it
 * runs. Leaving the page while it runs is asked first (the shell's guard); leaving anyway cancels it, and
 * what arrived stays on the server for a resume.
 */
export function useUploadJob(token: string) {
  const qc = useQueryClient();
  const [job, setJob] = useState<UploadJob | null>(null);
  const abort = useRef<AbortController | null>(null);
  useUnsavedChanges(job?.state === 'uploading');
  useEffect(() => () => abort.current?.abort(), []);

  const start = useCallback(
    async (video: { id: string; title: string }, file: File) => {
      const calls = adminCalls(token);
      const ctrl = new AbortController();
      abort.current = ctrl;
      setJob({ videoId: video.id, title: video.title, file, received: 0, size: file.size, state: 'uploading', error: null });
      const update = (patch: Partial<UploadJob>) => setJob((j) => (j && j.videoId === video.id ? { ...j, ...patch } : j));
      try {
        await uploadInPieces(file, {
          begin: (signal) => calls.begin(video.id, file, signal),
          piece: (offset, piece, signal) => calls.piece(video.id, offset, piece, signal),
          onProgress: (received, size) => update({ received, size }),
          signal: ctrl.signal,
        });
        update({ state: 'done' });
      } catch (error) {
        update(ctrl.signal.aborted ? { state: 'canceled' } : { state: 'failed', error: messageOf(error) });
      } finally {
        if (abort.current === ctrl) abort.current = null;
        // The video is now «Procesando…» (the list polls while it is).
        void qc.invalidateQueries({ queryKey: learningKeys.admin() });
      }
    },
    [qc, token],
  );

  return {
    job,
    start,
    cancel: () => abort.current?.abort(),
    /** A failed or cancelled upload goes on from what the server has. */
    resume: () => job && void start({ id: job.videoId, title: job.title }, job.file),
    dismiss: () => setJob(null),
  };
}
