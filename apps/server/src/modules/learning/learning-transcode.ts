import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Storage } from '../../platform/storage/storage';

/** Why a transcoding failed, in words the upload tool shows. */
export class TranscodeError extends Error {}

const FFMPEG = process.env.FFMPEG_PATH || 'ffmpeg';
const FFPROBE = process.env.FFPROBE_PATH || 'ffprobe';

function run(cmd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-2000)));
    child.once('error', (e: NodeJS.ErrnoException) =>
      reject(e.code === 'ENOENT' ? new TranscodeError(`${cmd} no está instalado en el servidor.`) : e),
    );
    child.once('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} exited ${code}: ${err.trim()}`))));
  });
}

/** The duration of a media file in seconds (ffprobe), or null when it holds no readable video. */
export async function probeDuration(file: string): Promise<number | null> {
  try {
    const out = await run(FFPROBE, ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]);
    const s = Number.parseFloat(out.trim());
    return Number.isFinite(s) && s > 0 ? s : null;
  } catch (err) {
    if (err instanceof TranscodeError) throw err;
    return null;
  }
}

const H264 = ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '128k', '-ac', '2'];
const BASE = ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y'];

/**
 * What the upload tool's file becomes (issue 29): the pieces joined into one source (streamed, never in
 * memory), the full video as MP4 H.264/AAC with its index first (plays while it downloads, seeks by
 * range), and the preview re-encoded from it cut at `previewSeconds` — exact to the frame, so a non-buyer's
 * bytes hold no more than the preview. Files go through the storage interface; the work happens in a
 * temporary folder removed afterwards.
 */
export async function transcode(
  storage: Storage,
  input: { parts: string[] } | { fullKey: string },
  previewSeconds: number,
  out: { fullKey: string; previewKey: string },
): Promise<{ durationSeconds: number; fullKey: string; previewKey: string | null }> {
  const dir = await mkdtemp(join(tmpdir(), 'divan-transcode-'));
  try {
    const full = join(dir, 'full.mp4');
    let fullKey = out.fullKey;
    if ('parts' in input) {
      const source = join(dir, 'source');
      for (const part of input.parts) await pipeline(storage.get(part), createWriteStream(source, { flags: 'a' }));
      if ((await probeDuration(source)) === null) throw new TranscodeError('El archivo no es un vídeo que podamos leer.');
      await run(FFMPEG, [...BASE, '-i', source, '-map', '0:v:0', '-map', '0:a:0?', ...H264, '-movflags', '+faststart', full]);
      await storage.put(out.fullKey, createReadStream(full));
    } else {
      fullKey = input.fullKey;
      await pipeline(storage.get(fullKey), createWriteStream(full));
    }
    const durationSeconds = await probeDuration(full);
    if (durationSeconds === null) throw new TranscodeError('El vídeo transcodificado no se puede leer.');
    let previewKey: string | null = null;
    if (previewSeconds > 0) {
      const preview = join(dir, 'preview.mp4');
      const seconds = Math.min(previewSeconds, durationSeconds);
      await run(FFMPEG, [
        ...BASE,
        '-i',
        full,
        '-t',
        String(seconds),
        '-map',
        '0:v:0',
        '-map',
        '0:a:0?',
        ...H264,
        '-movflags',
        '+faststart',
        preview,
      ]);
      await storage.put(out.previewKey, createReadStream(preview));
      previewKey = out.previewKey;
    }
    return { durationSeconds, fullKey, previewKey };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
