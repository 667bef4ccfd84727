import { describe, expect, it, vi } from 'vitest';
import type { LearningUploadState } from '@divan/core';
import { ApiError } from '@/lib/http';
import { uploadInPieces } from './upload-file';

const SIZE = 25;
const CHUNK = 10;
const file = new Blob([new Uint8Array(Array.from({ length: SIZE }, (_, i) => i))]);
const bytes = async (b: Blob) => [...new Uint8Array(await b.arrayBuffer())];

/** A server that keeps what it received and answers like the API: pieces in order, or 409. */
function server(startAt = 0) {
  let received = startAt;
  const state = (): LearningUploadState => ({ size: SIZE, received, chunkBytes: CHUNK });
  const pieces: { offset: number; bytes: number[] }[] = [];
  const begin = vi.fn(async () => state());
  const piece = vi.fn(async (offset: number, blob: Blob) => {
    if (offset !== received) throw new ApiError('learning_upload_offset', 'La subida se ha desordenado', 409);
    const b = await bytes(blob);
    pieces.push({ offset, bytes: b });
    received += b.length;
    return state();
  });
  return { begin, piece, pieces, set: (n: number) => (received = n) };
}

describe('uploadInPieces', () => {
  it('sends the file in the server’s pieces, in order, with their offsets, reporting the progress', async () => {
    const s = server();
    const progress: number[] = [];
    const done = await uploadInPieces(file, { begin: s.begin, piece: s.piece, onProgress: (r, size) => progress.push(r / size) });
    expect(s.pieces.map((p) => [p.offset, p.bytes.length])).toEqual([
      [0, 10],
      [10, 10],
      [20, 5],
    ]);
    // Each piece is the right slice of the file.
    expect(s.pieces.flatMap((p) => p.bytes)).toEqual(await bytes(file));
    expect(progress).toEqual([0, 0.4, 0.8, 1]);
    expect(done).toEqual({ size: SIZE, received: SIZE, chunkBytes: CHUNK });
    expect(s.begin).toHaveBeenCalledTimes(1);
  });

  it('resumes from what the server already has, not from 0', async () => {
    const s = server(12);
    const progress: number[] = [];
    await uploadInPieces(file, { begin: s.begin, piece: s.piece, onProgress: (r) => progress.push(r) });
    expect(s.pieces.map((p) => [p.offset, p.bytes[0], p.bytes.length])).toEqual([
      [12, 12, 10],
      [22, 22, 3],
    ]);
    expect(progress).toEqual([12, 22, 25]);
  });

  it('an out-of-order answer (409) asks the state again and goes on from there', async () => {
    const s = server();
    let once = true;
    const piece = vi.fn(async (offset: number, blob: Blob) => {
      // Another tab got a piece in first: the server is further on than this loop thought.
      if (offset === 10 && once) {
        once = false;
        s.set(20);
      }
      return s.piece(offset, blob);
    });
    await uploadInPieces(file, { begin: s.begin, piece, onProgress: () => undefined });
    expect(piece.mock.calls.map(([offset]) => offset)).toEqual([0, 10, 20]);
    expect(s.begin).toHaveBeenCalledTimes(2);
    expect(s.pieces.map((p) => p.offset)).toEqual([0, 20]);
  });

  it('gives up after a few failures in a row, and on any other error at once', async () => {
    const begin = vi.fn(async (): Promise<LearningUploadState> => ({ size: SIZE, received: 0, chunkBytes: CHUNK }));
    const offline = vi.fn(async (): Promise<LearningUploadState> => {
      throw new ApiError('network_error', 'Sin conexión', 0);
    });
    await expect(uploadInPieces(file, { begin, piece: offline, onProgress: () => undefined })).rejects.toMatchObject({
      code: 'network_error',
    });
    expect(offline).toHaveBeenCalledTimes(4);

    const refused = vi.fn(async (): Promise<LearningUploadState> => {
      throw new ApiError('learning_upload_token', 'El token de subida no es correcto.', 403);
    });
    await expect(uploadInPieces(file, { begin, piece: refused, onProgress: () => undefined })).rejects.toMatchObject({
      code: 'learning_upload_token',
    });
    expect(refused).toHaveBeenCalledTimes(1);
  });

  it('cancelling stops before the next piece', async () => {
    const s = server();
    const ctrl = new AbortController();
    const piece = vi.fn(async (offset: number, blob: Blob) => {
      const state = await s.piece(offset, blob);
      if (offset === 10) ctrl.abort();
      return state;
    });
    await expect(uploadInPieces(file, { begin: s.begin, piece, onProgress: () => undefined, signal: ctrl.signal })).rejects.toThrow();
    expect(s.pieces.map((p) => p.offset)).toEqual([0, 10]);
  });
});
