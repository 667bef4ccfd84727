import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { sql } from 'drizzle-orm';
import type { LearningAdminVideo, LearningUploadState, LearningVideoBody } from '@divan/core';
import type { TestApp } from './test-app';
import { until } from './until';
import type { Therapist } from './workspace-fixtures';

export const UPLOAD_TOKEN = 'token-de-subida-de-prueba';
export const A = '/api/v1/learning/admin';

/** A short test card with a tone, made by ffmpeg (H.264/AAC MP4): `seconds` long. */
export function testVideo(seconds: number): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'divan-video-'));
  const file = join(dir, 'card.mp4');
  execFileSync('ffmpeg', [
    ...['-nostdin', '-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `testsrc=duration=${seconds}:size=160x120:rate=25`],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', file],
  ]);
  return readFileSync(file);
}

/** Seconds of a media file as ffprobe reads it (the bytes a client was served, decoded). */
export function probeSeconds(data: Buffer): number {
  const dir = mkdtempSync(join(tmpdir(), 'divan-probe-'));
  const file = join(dir, 'got.mp4');
  execFileSync('sh', ['-c', `cat > ${file}`], { input: data });
  const out = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file], { encoding: 'utf8' });
  return Number.parseFloat(out.trim());
}

export async function makeStaff(t: TestApp, who: Therapist) {
  await t.rows(sql`update users set staff = true where id = ${who.userId}`);
}

export const staffHeaders = { 'x-upload-token': UPLOAD_TOKEN };

export const videoBody = (over: Partial<LearningVideoBody> = {}): LearningVideoBody => ({
  title: `Vídeo ${Math.random().toString(36).slice(2, 8)}`,
  description: 'Un comentario del libro, capítulo a capítulo.',
  colour: '#2F6F5E',
  categories: ['BOOK_COMMENTARY'],
  tags: ['apego', 'duelo'],
  priceCents: 2479,
  previewSeconds: 3,
  ...over,
});

export async function createVideo(t: TestApp, staff: Therapist, over: Partial<LearningVideoBody> = {}) {
  const res = await t.post(`${A}/videos`, videoBody(over), { token: staff.accessToken, headers: staffHeaders });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as LearningAdminVideo;
}

/** Sends the file in `pieces` pieces, as the upload tool does; answers the last state. */
export async function upload(t: TestApp, staff: Therapist, videoId: string, file: Buffer, pieces = 2) {
  const begin = await t.post(
    `${A}/videos/${videoId}/upload`,
    { fileName: 'card.mp4', size: file.length },
    { token: staff.accessToken, headers: staffHeaders },
  );
  expect(begin.statusCode, begin.body).toBe(200);
  let state = begin.json() as LearningUploadState;
  const step = Math.ceil(file.length / pieces);
  while (state.received < state.size) {
    const piece = file.subarray(state.received, Math.min(file.length, state.received + step));
    const res = await t.put(`${A}/videos/${videoId}/upload?offset=${state.received}`, piece, {
      token: staff.accessToken,
      headers: { ...staffHeaders, 'content-type': 'application/octet-stream' },
    });
    expect(res.statusCode, res.body).toBe(200);
    state = res.json() as LearningUploadState;
  }
  return state;
}

export async function processed(t: TestApp, staff: Therapist, videoId: string) {
  const v = await until(
    async () =>
      (
        (await t.get(`${A}/videos`, { token: staff.accessToken, headers: staffHeaders })).json() as { items: LearningAdminVideo[] }
      ).items.find((x) => x.id === videoId)!,
    (x) => x.status !== 'processing',
    60_000,
  );
  expect(v.failure).toBeNull();
  return v;
}

export async function publish(t: TestApp, staff: Therapist, videoId: string) {
  const res = await t.post(`${A}/videos/${videoId}/publish`, undefined, { token: staff.accessToken, headers: staffHeaders });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as LearningAdminVideo;
}
