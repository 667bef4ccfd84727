import { learningPriceWithVat, type LearningCard, type LearningPurchase } from '@divan/core';
import type { CardRow } from './learning.repository';
import type { LearningPurchaseRow, LearningVideoRow } from './learning.tables';

export const iconUrlOf = (v: LearningVideoRow) => (v.iconFileId ? `/api/v1/files/${v.iconFileId}` : null);

export function cardOf({ video: v, purchased, bookmarked, progress }: CardRow): LearningCard {
  return {
    id: v.id,
    title: v.title,
    colour: v.colour,
    iconUrl: iconUrlOf(v),
    categories: v.categories,
    tags: v.tags,
    priceCents: v.priceCents,
    priceWithVatCents: learningPriceWithVat(v.priceCents),
    previewSeconds: v.previewSeconds,
    durationSeconds: v.durationSeconds,
    hosting: v.vimeoUrl && !v.fullKey ? 'vimeo' : 'file',
    purchased,
    bookmarked,
    progress: progress
      ? {
          positionSeconds: progress.positionSeconds,
          watchedSeconds: progress.watchedSeconds,
          completedAt: progress.completedAt?.toISOString() ?? null,
          updatedAt: progress.updatedAt.toISOString(),
        }
      : null,
  };
}

export function purchaseOf(p: LearningPurchaseRow, title: string): LearningPurchase {
  return {
    id: p.id,
    videoId: p.videoId,
    title,
    baseCents: p.baseCents,
    vatCents: p.vatCents,
    totalCents: p.totalCents,
    purchasedAt: (p.paidAt ?? p.createdAt).toISOString(),
    refundedAt: p.refundedAt?.toISOString() ?? null,
    invoiceNumber: p.invoiceNumber,
    invoiceId: p.invoiceId,
  };
}
