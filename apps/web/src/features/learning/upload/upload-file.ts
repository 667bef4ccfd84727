import type { LearningUploadState } from '@divan/core';
import { ApiError, isApiError } from '@/lib/http';

type Steps = {
  /** POST …/upload: begins, or resumes, and answers where the next piece starts. */
  begin: (signal?: AbortSignal) => Promise<LearningUploadState>;
  /** PUT …/upload?offset=: one piece, the new state. */
  piece: (offset: number, piece: Blob, signal?: AbortSignal) => Promise<LearningUploadState>;
  onProgress: (received: number, size: number) => void;
  signal?: AbortSignal;
};

/** Failures after which the state is asked again and the upload goes on from there. */
const RESUMABLE = new Set(['learning_upload_offset', 'network_error']);
const RETRIES = 3;

/**
 * Sends `file` in the server's pieces, in order, from where the server says it has got to (a resumed upload
 * starts at `received`, not at 0). An out-of-order answer (409) or a dropped connection asks the state
 * again, a few times in a row at most. Cancelling aborts the piece in flight; what arrived stays, so
 * choosing the same file again continues.
 */
export async function uploadInPieces(file: Blob, { begin, piece, onProgress, signal }: Steps): Promise<LearningUploadState> {
  let state = await begin(signal);
  onProgress(state.received, state.size);
  let failures = 0;
  while (state.received < state.size) {
    signal?.throwIfAborted();
    const offset = state.received;
    try {
      const next = await piece(offset, file.slice(offset, Math.min(offset + state.chunkBytes, state.size)), signal);
      // A piece that moved nothing would loop for ever: ask where things stand.
      if (next.received <= offset) throw new ApiError('learning_upload_offset', 'La subida no avanza: vuelve a intentarlo.', 409);
      state = next;
      failures = 0;
    } catch (error) {
      if (signal?.aborted || !isApiError(error) || !RESUMABLE.has(error.code) || ++failures > RETRIES) throw error;
      state = await begin(signal);
    }
    onProgress(state.received, state.size);
  }
  return state;
}
