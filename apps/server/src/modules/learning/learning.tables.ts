import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, real, text, timestamp, uniqueIndex, uuid, bigint } from 'drizzle-orm/pg-core';
import type { LearningCategory, LearningVideoState, WatchedIntervals } from '@divan/core';
// Foreign keys only: this module reads users and workspaces through their services.
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';

/**
 * The training library (issue 29): Diván's videos, sold one by one to therapists. A video's bytes live in
 * storage under `learning/<id>/…`: the upload as it arrives, then the transcoded full MP4 and the preview
 * rendition cut at `preview_seconds` — the only bytes a non-buyer is ever served.
 */
export const learningVideos = pgTable(
  'learning_videos',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    colour: text('colour').notNull(),
    /** The transparent icon: a public image (`GET /api/v1/files/:id`). */
    iconFileId: uuid('icon_file_id'),
    vimeoUrl: text('vimeo_url'),
    categories: text('categories').array().$type<LearningCategory[]>().notNull(),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Cents, VAT excluded: what the uploader typed. */
    priceCents: integer('price_cents').notNull(),
    previewSeconds: integer('preview_seconds').notNull(),
    status: text('status').$type<LearningVideoState>().notNull().default('draft'),
    failure: text('failure'),
    durationSeconds: real('duration_seconds'),
    /** The upload in progress: its announced size and the bytes received (in order). */
    uploadSize: bigint('upload_size', { mode: 'number' }),
    uploadReceived: bigint('upload_received', { mode: 'number' }).notNull().default(0),
    /** The upload's pieces in storage, in order (each written under its own key, then listed here). */
    uploadParts: text('upload_parts')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Storage keys of the renditions, set by the transcoding job. */
    fullKey: text('full_key'),
    previewKey: text('preview_key'),
    uploaderId: uuid('uploader_id').references(() => users.id, { onDelete: 'set null' }),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('learning_videos_title_key').on(sql`lower(${t.title})`),
    index('learning_videos_status_idx').on(t.status, t.publishedAt),
  ],
);
export type LearningVideoRow = typeof learningVideos.$inferSelect;

/** A video bought by a therapist (access without limit), paid by a workspace's saved card; one per user and video unless refunded. */
export const learningPurchases = pgTable(
  'learning_purchases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    videoId: uuid('video_id')
      .notNull()
      .references(() => learningVideos.id, { onDelete: 'restrict' }),
    /** Whose saved card paid and whose billing data Diván's invoice names. */
    workspaceId: uuid('workspace_id').references(() => workspaces.id, { onDelete: 'set null' }),
    baseCents: integer('base_cents').notNull(),
    vatCents: integer('vat_cents').notNull(),
    totalCents: integer('total_cents').notNull(),
    /** `pending` while the provider charges (or the bank asks the buyer), `paid`, `failed`, `refunded`. */
    status: text('status').$type<'pending' | 'paid' | 'failed' | 'refunded'>().notNull(),
    paymentIntentId: text('payment_intent_id'),
    checkoutSessionId: text('checkout_session_id'),
    /** Diván's invoice for it: its id (in Diván's own workspace) and number. */
    invoiceId: uuid('invoice_id'),
    invoiceNumber: text('invoice_number'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Buying twice is refused by the database too: one live purchase per user and video.
    uniqueIndex('learning_purchases_live_key')
      .on(t.userId, t.videoId)
      .where(sql`status in ('pending', 'paid')`),
    index('learning_purchases_video_idx').on(t.videoId, t.paidAt),
  ],
);
export type LearningPurchaseRow = typeof learningPurchases.$inferSelect;

/** Where a therapist is in a video, and which stretches they actually watched. */
export const learningProgress = pgTable(
  'learning_progress',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    videoId: uuid('video_id')
      .notNull()
      .references(() => learningVideos.id, { onDelete: 'cascade' }),
    positionSeconds: real('position_seconds').notNull().default(0),
    watched: jsonb('watched')
      .$type<WatchedIntervals>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    watchedSeconds: real('watched_seconds').notNull().default(0),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.videoId] }), index('learning_progress_completed_idx').on(t.completedAt)],
);
export type LearningProgressRow = typeof learningProgress.$inferSelect;

export const learningBookmarks = pgTable(
  'learning_bookmarks',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    videoId: uuid('video_id')
      .notNull()
      .references(() => learningVideos.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.videoId] })],
);
