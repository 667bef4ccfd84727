import {
  LEARNING_MEDIA_LINK_SECONDS,
  LEARNING_PAGE_SIZE,
  isWatchedEnough,
  mergeWatched,
  parseVimeoUrl,
  watchedSecondsOf,
  type LearningList,
  type LearningListQuery,
  type LearningMedia,
  type LearningProgress,
  type LearningProgressBody,
  type LearningPurchase,
  type LearningVideo,
} from '@divan/core';
import type { Db } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { UsersService } from '../users/users.service';
import type { MediaLinks } from './learning-media';
import { cardOf, purchaseOf } from './learning-presenter';
import { learningRepository } from './learning.repository';
import type { LearningVideoRow } from './learning.tables';

/** A preview link lives an hour: it only ever opens the cut rendition. */
const PREVIEW_LINK_SECONDS = 3_600;
/** Played faster than twice the wall clock (plus a margin for a save that came late) is not watching. */
const PLAYBACK_RATE_MAX = 2;
const WATCH_SLACK_SECONDS = 25;
const POPULAR_DAYS = 30;

/**
 * The training library as a therapist reads it (issue 29): the published catalogue with their own
 * purchases, favourites and progress — another therapist's never — the video page, its media links and
 * the progress the player saves. Everything is the caller's own: no workspace scope, no other user's rows.
 */
export class LearningService {
  constructor(
    private readonly d: {
      db: Db;
      users: Pick<UsersService, 'namesByIds'>;
      links: MediaLinks;
      clock: () => Date;
    },
  ) {}

  private repo = () => learningRepository(this.d.db);

  async list(userId: string, q: LearningListQuery): Promise<LearningList> {
    const page = Number(q.page ?? 1);
    const [{ rows, total }, tags] = await Promise.all([
      this.repo().cards(userId, { q: q.q, category: q.category, tag: q.tag, shelf: q.shelf }, page, LEARNING_PAGE_SIZE),
      this.repo().tags(),
    ]);
    return { items: rows.map(cardOf), total, page, pageSize: LEARNING_PAGE_SIZE, tags };
  }

  async popular(userId: string) {
    const since = new Date(this.d.clock().getTime() - POPULAR_DAYS * 86_400_000);
    const ids = await this.repo().popularIds(since, 8);
    return { items: (await this.repo().cardsByIds(userId, ids)).map(cardOf) };
  }

  async continueWatching(userId: string) {
    const { rows } = await this.repo().cards(userId, { shelf: 'in_progress' }, 1, 6);
    return { items: rows.map(cardOf) };
  }

  /**
   * A published video, or one the caller bought that was unpublished since (access without limit); a
   * staff member's draft is neither: 404 otherwise.
   */
  private async published(userId: string, videoId: string) {
    const row = await this.repo().card(userId, videoId);
    const reachable = row && (row.video.status === 'published' || (row.video.status !== 'draft' && row.purchased));
    if (!reachable) throw new AppError('learning_content_not_found');
    return row;
  }

  async video(userId: string, videoId: string): Promise<LearningVideo> {
    const row = await this.published(userId, videoId);
    const v = row.video;
    const [related, names] = await Promise.all([
      this.repo().related(userId, v, 6),
      v.uploaderId ? this.d.users.namesByIds([v.uploaderId]) : Promise.resolve([]),
    ]);
    const name = names[0] ? [names[0].firstName, names[0].lastName].filter(Boolean).join(' ') : 'Equipo de Diván';
    return {
      ...cardOf(row),
      description: v.description,
      uploader: { name },
      publishedAt: v.publishedAt?.toISOString() ?? null,
      related: related.map(cardOf),
    };
  }

  async media(userId: string, videoId: string, base: string): Promise<LearningMedia> {
    const row = await this.published(userId, videoId);
    const v = row.video;
    const now = Math.floor(this.d.clock().getTime() / 1000);
    const link = (r: 'full' | 'preview', seconds: number) => {
      const e = now + seconds;
      return {
        url: `${base}/api/v1/learning/media?token=${this.d.links.sign({ v: v.id, u: userId, r, e })}`,
        expiresAt: new Date(e * 1000).toISOString(),
      };
    };
    const preview =
      v.previewSeconds > 0 && v.previewKey ? { url: link('preview', PREVIEW_LINK_SECONDS).url, seconds: v.previewSeconds } : null;
    if (!row.purchased) return { preview, full: null };
    if (v.fullKey) return { preview, full: { kind: 'file', ...link('full', LEARNING_MEDIA_LINK_SECONDS) } };
    const vimeo = v.vimeoUrl ? parseVimeoUrl(v.vimeoUrl) : null;
    const url = vimeo ? `https://player.vimeo.com/video/${vimeo.id}${vimeo.hash ? `?h=${vimeo.hash}` : ''}` : null;
    return { preview, full: url ? { kind: 'vimeo', url } : null };
  }

  /** Which rendition's key a link may open now: the full one only while its user's purchase stands. */
  async mediaKey(claim: { v: string; u: string; r: 'full' | 'preview' }): Promise<string | null> {
    const v = await this.repo().video(claim.v);
    if (!v || v.status === 'draft') return null;
    const paid = await this.repo().hasPaid(claim.u, v.id);
    if (v.status !== 'published' && !paid) return null;
    if (claim.r === 'preview') return v.previewSeconds > 0 ? v.previewKey : null;
    return paid ? v.fullKey : null;
  }

  async bookmark(userId: string, videoId: string, on: boolean): Promise<void> {
    await this.published(userId, videoId);
    if (on) {
      if (!(await this.repo().addBookmark(userId, videoId))) throw new AppError('learning_bookmark_exists');
    } else if (!(await this.repo().removeBookmark(userId, videoId))) throw new AppError('learning_bookmark_not_found');
  }

  /**
   * The player's save: where it is, and the stretches it played since the last save. Watched time is the
   * union of the stretches (a stretch seen twice counts once), bounded by the time that passed since the
   * last save at twice the speed; completed at 90 % of the duration watched — a jump to the end is a
   * position, not watching. Only a buyer has progress.
   */
  async saveProgress(userId: string, videoId: string, body: LearningProgressBody): Promise<LearningProgress> {
    const row = await this.published(userId, videoId);
    if (!row.purchased) throw new AppError('learning_media_forbidden');
    const duration = durationOf(row.video, body.durationSeconds);
    const now = this.d.clock();
    const saved = await this.d.db.transaction(async (tx) => {
      const repo = learningRepository(tx);
      const before = await repo.progressForUpdate(userId, videoId);
      const had = before?.watched ?? [];
      let watched = mergeWatched(had, body.watched ?? [], duration);
      const gained = watchedSecondsOf(watched) - watchedSecondsOf(had);
      // The first save has no earlier one to measure from: what a player saves after its first few seconds.
      const since = before ? (now.getTime() - before.updatedAt.getTime()) / 1000 : 0;
      if (gained > since * PLAYBACK_RATE_MAX + WATCH_SLACK_SECONDS) watched = had;
      const watchedSeconds = watchedSecondsOf(watched);
      return repo.saveProgress({
        userId,
        videoId,
        positionSeconds: Math.min(body.positionSeconds, duration),
        watched,
        watchedSeconds,
        completedAt: before?.completedAt ?? (isWatchedEnough(watched, duration) ? now : null),
        updatedAt: now,
      });
    });
    return {
      positionSeconds: saved.positionSeconds,
      watchedSeconds: saved.watchedSeconds,
      completedAt: saved.completedAt?.toISOString() ?? null,
      updatedAt: saved.updatedAt.toISOString(),
    };
  }

  async purchases(userId: string): Promise<{ items: LearningPurchase[] }> {
    const rows = await this.repo().purchasesOf(userId);
    return { items: rows.map((r) => purchaseOf(r.purchase, r.title)) };
  }
}

/**
 * A file's duration is the transcoder's; a Vimeo-hosted video's is what its player says (the server never
 * reads Vimeo), at most ten hours.
 */
function durationOf(v: LearningVideoRow, reported: number | undefined): number {
  if (v.durationSeconds) return v.durationSeconds;
  if (reported && reported > 0) return Math.min(reported, 36_000);
  return 36_000;
}
