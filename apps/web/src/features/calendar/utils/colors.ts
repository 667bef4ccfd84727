import type { SessionStatus } from '@divan/core';

/** Hues that keep white text readable in both themes; a therapist keeps theirs by position in the team list. */
const THERAPIST_COLORS = ['#2f6f6a', '#3b5ba9', '#8a4f9e', '#b0552a', '#a23b63', '#55752b', '#1f7396', '#8a6a16'];

export const therapistColor = (index: number) =>
  THERAPIST_COLORS[((index % THERAPIST_COLORS.length) + THERAPIST_COLORS.length) % THERAPIST_COLORS.length]!;

export const STATUS_COLORS: Record<SessionStatus, string> = { pending: '#3b5ba9', completed: '#3f7a3a', canceled: '#87827a' };
