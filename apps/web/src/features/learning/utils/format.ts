import { isHexColour, learningCategoryLabels, type LearningCard, type LearningCategory } from '@divan/core';

export const categoryLabel = (c: LearningCategory) => learningCategoryLabels[c];

/** A card's colour as CSS; a malformed one (never from the contract) falls back to a neutral slate. */
export const cardColour = (colour: string) => (isHexColour(colour) ? colour : '#64748b');

/** 45 → «45 s», 754 → «12:34», 3905 → «1:05:05». */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}

/** Where the buyer is, 0–1 (null without a duration or progress). */
export function progressShare(card: Pick<LearningCard, 'durationSeconds' | 'progress'>): number | null {
  if (!card.progress || !card.durationSeconds) return null;
  return Math.min(1, card.progress.positionSeconds / card.durationSeconds);
}

/** Started and not completed: the card shows its bar and goes to «En curso». */
export const isInProgress = (card: Pick<LearningCard, 'purchased' | 'progress'>) =>
  card.purchased && !!card.progress && !card.progress.completedAt && card.progress.positionSeconds > 0;

/** Not resumed this close to the end (3 s, or 5 % of a short video): it starts again from the beginning. */
export const nearTheEnd = (time: number, duration: number) => Number.isFinite(duration) && time >= duration - Math.min(3, duration * 0.05);
