import { randomUUID, timingSafeEqual } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { LEARNING_UPLOAD_CHUNK_BYTES, type LearningAdminVideo, type LearningUploadState, type LearningVideoBody } from '@divan/core';
import type { Db } from '../../platform/db/database';
import { isUniqueViolation } from '../../platform/db/pg-errors';
import { AppError } from '../../platform/errors';
import type { Jobs, QueueDefinition } from '../../platform/jobs/jobs';
import type { PublicImageStore } from '../../platform/storage/public-image-store';
import { uploadedImage } from '../../platform/storage/image';
import type { Storage } from '../../platform/storage/storage';
import type { UsersService } from '../users/users.service';
import { cardOf } from './learning-presenter';
import { TranscodeError, transcode } from './learning-transcode';
import { adminQueries } from './learning-admin.queries';
import type { LearningVideoRow } from './learning.tables';

const QUEUE = 'learning-transcode';
/** `recut`: only the preview cut again from the full rendition (a new preview length); the video's status stays. */
type Job = { videoId: string; nonce: string; recut?: boolean };
type VideoFields = Omit<LearningVideoBody, 'tags'> & { tags: string[] };

/**
 * The upload tool (issue 29, spec §6: admin-only): Diván's own staff — `users.staff`, set by the operator's
 * `npm run admin`, never a workspace role — with the server's upload token (LEARNING_UPLOAD_TOKEN). A
 * video is written as a draft, its file sent in pieces in order (each streamed to storage under its own
 * key), transcoded by a job, then published; unpublished hides it from the catalogue (buyers keep nothing
 * they could not reach before: the catalogue and its links need `published`).
 */
export class LearningAdmin {
  constructor(
    private readonly d: {
      db: Db;
      storage: Storage;
      jobs: Jobs;
      images: PublicImageStore;
      users: Pick<UsersService, 'isStaff' | 'findManyByIds'>;
      /** LEARNING_STAFF_EMAILS: staff by the server's configuration. */
      staffEmails: string[];
      uploadToken: string | null;
      log: FastifyBaseLogger;
      clock: () => Date;
    },
  ) {}

  /** For the app's menu: whether to show the upload tool (the token is still asked by every call). */
  async access(userId: string) {
    return { staff: await this.isStaff(userId), uploadConfigured: !!this.d.uploadToken };
  }

  private async isStaff(userId: string): Promise<boolean> {
    if (await this.d.users.isStaff(userId)) return true;
    if (this.d.staffEmails.length === 0) return false;
    const [user] = await this.d.users.findManyByIds([userId]);
    return !!user && this.d.staffEmails.includes(user.email.toLowerCase());
  }

  /** Every staff route's guard: a staff account, and the upload token, compared in constant time. */
  async guard(userId: string, token: string | undefined): Promise<void> {
    if (!(await this.isStaff(userId))) throw new AppError('learning_staff_only');
    if (!this.d.uploadToken) throw new AppError('learning_upload_disabled');
    const want = Buffer.from(this.d.uploadToken);
    const got = Buffer.from(token ?? '');
    if (want.length !== got.length || !timingSafeEqual(want, got)) throw new AppError('learning_upload_token');
  }

  async list(): Promise<{ items: LearningAdminVideo[] }> {
    return { items: (await this.q().all()).map(({ video, purchases }) => this.present(video, purchases)) };
  }

  async create(userId: string, body: VideoFields): Promise<LearningAdminVideo> {
    try {
      const row = await this.q().insert({ ...body, vimeoUrl: body.vimeoUrl ?? null, uploaderId: userId, status: 'draft' });
      return this.present(row, 0);
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('learning_content_exists');
      throw err;
    }
  }

  async update(videoId: string, body: Partial<VideoFields>): Promise<LearningAdminVideo> {
    const before = await this.video(videoId);
    // A new preview length is cut again from the full rendition.
    const recut =
      body.previewSeconds !== undefined &&
      body.previewSeconds !== before.previewSeconds &&
      !!before.fullKey &&
      before.status !== 'processing';
    try {
      const row = await this.q().update(videoId, { ...body, updatedAt: this.d.clock() });
      if (recut) await this.enqueue(videoId, true);
      return this.present(row, await this.q().paidCount(videoId));
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('learning_content_exists');
      throw err;
    }
  }

  async setIcon(videoId: string, userId: string, data: Buffer): Promise<LearningAdminVideo> {
    const before = await this.video(videoId);
    const image = uploadedImage(data, { square: false });
    const saved = await this.d.images.save({ ownerUserId: userId, purpose: 'learning-icon', contentType: image.contentType, data });
    const row = await this.q().update(videoId, { iconFileId: saved.id, updatedAt: this.d.clock() });
    if (before.iconFileId) await this.d.images.delete(before.iconFileId);
    return this.present(row!, await this.q().paidCount(videoId));
  }

  async publish(videoId: string, on: boolean): Promise<LearningAdminVideo> {
    const v = await this.video(videoId);
    if (on && !v.fullKey && !v.vimeoUrl) throw new AppError('learning_not_ready');
    if (v.status === 'processing') throw new AppError('learning_not_ready');
    const now = this.d.clock();
    const row = await this.q().update(
      videoId,
      on ? { status: 'published', publishedAt: v.publishedAt ?? now, updatedAt: now } : { status: 'unpublished', updatedAt: now },
    );
    return this.present(row!, await this.q().paidCount(videoId));
  }

  /** A file's upload begun (or asked again to resume): the pieces already taken stay when the size is the same. */
  async beginUpload(videoId: string, size: number): Promise<LearningUploadState> {
    const v = await this.video(videoId);
    if (v.status === 'processing') throw new AppError('learning_not_ready');
    if (v.uploadSize === size && v.uploadReceived < size) return this.state(v);
    const old = v.uploadParts;
    const row = await this.q().update(videoId, { uploadSize: size, uploadReceived: 0, uploadParts: [], updatedAt: this.d.clock() });
    await Promise.all(old.map((k) => this.d.storage.delete(k).catch(() => undefined)));
    return this.state(row!);
  }

  /**
   * One piece at `offset`, streamed to storage under its own key and counted as it passes (past the piece's
   * size or the file's, it stops): then taken only if the upload is still where it said (two pieces for
   * the same offset: one wins, the other's bytes are removed). The last one queues the transcoding.
   */
  async putChunk(videoId: string, offset: number, body: Readable): Promise<LearningUploadState> {
    const v = await this.video(videoId);
    if (v.uploadSize === null || v.status === 'processing') throw new AppError('learning_upload_offset');
    if (offset !== v.uploadReceived) throw new AppError('learning_upload_offset');
    const room = Math.min(LEARNING_UPLOAD_CHUNK_BYTES, v.uploadSize - offset);
    let bytes = 0;
    // Pulled only as storage writes (lazy): counted on the way, stopped past the room it has.
    async function* counted(source: Readable) {
      for await (const chunk of source as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        if (bytes > room) throw new AppError('file_too_large', undefined, 'Esta parte del archivo es más grande de lo anunciado.');
        yield chunk;
      }
    }
    const key = `learning/${videoId}/parts/${String(offset).padStart(12, '0')}-${randomUUID()}`;
    await this.d.storage.put(key, Readable.from(counted(body)));
    if (bytes === 0) {
      await this.d.storage.delete(key);
      throw new AppError('upload_incomplete');
    }
    const received = offset + bytes;
    const done = received === v.uploadSize;
    const row = await this.q().appendPart(
      videoId,
      { offset, size: v.uploadSize },
      { key, received },
      { updatedAt: this.d.clock(), ...(done ? { status: 'processing' as const, failure: null } : {}) },
    );
    if (!row) {
      await this.d.storage.delete(key);
      throw new AppError('learning_upload_offset');
    }
    if (done) await this.enqueue(videoId);
    return this.state(row);
  }

  readonly queue: QueueDefinition<Job> = {
    name: QUEUE,
    work: (j) => this.work(j),
    retryLimit: 2,
    retryDelaySeconds: 30,
    expireInSeconds: 3_600,
  };

  private enqueue(videoId: string, recut = false) {
    return this.d.jobs.send<Job>(QUEUE, { videoId, nonce: randomUUID(), recut });
  }

  private async work({ videoId, nonce, recut }: Job): Promise<void> {
    const v = await this.q().video(videoId);
    if (!v) return;
    const fresh = !recut && v.status === 'processing' && v.uploadSize !== null && v.uploadReceived === v.uploadSize;
    if (!fresh && !(recut && v.fullKey && v.status !== 'processing')) return;
    const out = { fullKey: `learning/${videoId}/full-${nonce}.mp4`, previewKey: `learning/${videoId}/preview-${nonce}.mp4` };
    // A new file is checked before it goes live again: a video that was published comes back unpublished.
    const after = fresh ? (v.publishedAt ? 'unpublished' : 'draft') : v.status;
    try {
      const made = await transcode(this.d.storage, fresh ? { parts: v.uploadParts } : { fullKey: v.fullKey! }, v.previewSeconds, out);
      await this.q().update(videoId, {
        fullKey: made.fullKey,
        previewKey: made.previewKey,
        durationSeconds: made.durationSeconds,
        status: after,
        failure: null,
        ...(fresh ? { uploadParts: [], uploadSize: null, uploadReceived: 0 } : {}),
        updatedAt: this.d.clock(),
      });
      const stale = [...(fresh ? v.uploadParts : []), ...(fresh && v.fullKey ? [v.fullKey] : []), ...(v.previewKey ? [v.previewKey] : [])];
      await Promise.all(
        stale.filter((k) => k !== made.fullKey && k !== made.previewKey).map((k) => this.d.storage.delete(k).catch(() => undefined)),
      );
    } catch (err) {
      this.d.log.error({ err, videoId }, 'learning: transcoding failed');
      const failure =
        err instanceof TranscodeError ? err.message : 'No se pudo transcodificar el vídeo. Prueba con otro archivo (MP4 o MOV).';
      await this.q().update(videoId, {
        status: after,
        failure,
        ...(fresh ? { uploadParts: [], uploadSize: null, uploadReceived: 0 } : {}),
        updatedAt: this.d.clock(),
      });
      if (fresh) await Promise.all(v.uploadParts.map((k) => this.d.storage.delete(k).catch(() => undefined)));
    }
  }

  private async video(videoId: string): Promise<LearningVideoRow> {
    const v = await this.q().video(videoId);
    if (!v) throw new AppError('learning_content_not_found');
    return v;
  }

  private q = () => adminQueries(this.d.db);

  private state(v: LearningVideoRow): LearningUploadState {
    return { size: v.uploadSize ?? 0, received: v.uploadReceived, chunkBytes: LEARNING_UPLOAD_CHUNK_BYTES };
  }

  private present(v: LearningVideoRow, purchases: number): LearningAdminVideo {
    return {
      ...cardOf({ video: v, purchased: false, bookmarked: false, progress: null }),
      description: v.description,
      vimeoUrl: v.vimeoUrl,
      status: v.status,
      failure: v.failure,
      hasFile: !!v.fullKey,
      publishedAt: v.publishedAt?.toISOString() ?? null,
      purchases,
      createdAt: v.createdAt.toISOString(),
    };
  }
}
