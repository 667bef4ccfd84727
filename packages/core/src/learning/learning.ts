/**
 * The training library (spec §2 learn, §3 learning content, issue 29): its categories, the price a
 * therapist pays (IVA added to what the uploader typed, to the cent), the colour and Vimeo rules, and the
 * arithmetic of watched time — what counts as «completed» is time actually watched, not the position.
 */

export const LEARNING_CATEGORIES = ['BOOK_COMMENTARY', 'PSYCHOLOGIST_SKILLS', 'CLINICAL_CASE_COMMENTARY'] as const;
export type LearningCategory = (typeof LEARNING_CATEGORIES)[number];

export const learningCategoryLabels: Record<LearningCategory, string> = {
  BOOK_COMMENTARY: 'Comentarios de libros',
  PSYCHOLOGIST_SKILLS: 'Habilidades del psicólogo',
  CLINICAL_CASE_COMMENTARY: 'Comentarios de casos clínicos',
};

/** Spain's general IVA: the library's prices are typed without it and shown with it. */
export const LEARNING_VAT_PERCENT = 21;
/**
 * What the uploader may type, VAT excluded (cents): 0,42 € … 9.999,99 €. The floor is the card's: a
 * payment must be above 0,50 € (spec §9, MIN_CHARGE_CENTS), and 0,42 € is the least whose price with IVA
 * (0,51 €) is — a cheaper video could be listed but never bought.
 */
export const LEARNING_PRICE_MIN = 42;
export const LEARNING_PRICE_MAX = 999_999;

/** The IVA of a price typed without it: base × 21 %, rounded to the cent (half up). */
export const learningVatOf = (baseCents: number): number => Math.floor((baseCents * LEARNING_VAT_PERCENT + 50) / 100);
/** The price shown «IVA incluido» and charged: base + its IVA. */
export const learningPriceWithVat = (baseCents: number): number => baseCents + learningVatOf(baseCents);

/** Preview seconds: 0 disables the preview (spec §9); at most ten minutes. */
export const LEARNING_PREVIEW_MAX_SECONDS = 600;
/** Watched at least this share of the video's duration: completed. */
export const LEARNING_COMPLETE_SHARE = 0.9;
/** How often the player saves the progress while it plays (and on pause, on leaving). */
export const LEARNING_PROGRESS_SAVE_MS = 10_000;
/** A buyer's signed link to the full video lives this long (the player asks again before it ends). */
export const LEARNING_MEDIA_LINK_SECONDS = 600;
/** The upload tool sends the file in pieces of this size (the last one shorter). */
export const LEARNING_UPLOAD_CHUNK_BYTES = 8 * 1024 * 1024;
/** The largest file the upload tool takes. */
export const LEARNING_UPLOAD_MAX_BYTES = 8 * 1024 * 1024 * 1024;
export const LEARNING_TITLE_MAX = 160;
export const LEARNING_DESCRIPTION_MAX = 5_000;
export const LEARNING_TAG_MAX = 40;
export const LEARNING_TAGS_MAX = 12;
export const LEARNING_PAGE_SIZE = 24;

/** Spec §5: a colour is 6-digit hex. */
export const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;
export const isHexColour = (v: string): boolean => HEX_COLOUR.test(v);

/**
 * A video URL «in Vimeo form»: https://vimeo.com/<id>, https://vimeo.com/<id>/<hash> or
 * https://player.vimeo.com/video/<id>[?h=<hash>]. Answers the id and the privacy hash, or null.
 */
export function parseVimeoUrl(url: string): { id: string; hash: string | null } | null {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return null;
  }
  if (u.protocol !== 'https:') return null;
  const parts = u.pathname.split('/').filter(Boolean);
  let id: string | undefined;
  let hash: string | null = u.searchParams.get('h');
  if (u.hostname === 'vimeo.com' || u.hostname === 'www.vimeo.com') {
    id = parts[0];
    if (parts[1]) hash = parts[1];
    if (parts.length > 2) return null;
  } else if (u.hostname === 'player.vimeo.com' && parts[0] === 'video' && parts.length === 2) {
    id = parts[1];
  } else return null;
  if (!id || !/^\d{1,12}$/.test(id)) return null;
  if (hash !== null && !/^[0-9a-f]{6,20}$/i.test(hash)) return null;
  return { id, hash };
}

/** Seconds of a video watched, as sorted, non-overlapping [from, to) intervals. */
export type WatchedIntervals = [number, number][];

/** The union of watched intervals, each clipped to [0, duration] (rounded to tenths of a second). */
export function mergeWatched(a: WatchedIntervals, b: WatchedIntervals, duration: number): WatchedIntervals {
  const r = (n: number) => Math.round(n * 10) / 10;
  const all = [...a, ...b]
    .map(([f, t]) => [r(Math.max(0, Math.min(f, duration))), r(Math.max(0, Math.min(t, duration)))] as [number, number])
    .filter(([f, t]) => t > f)
    .sort((x, y) => x[0] - y[0]);
  const out: WatchedIntervals = [];
  for (const [f, t] of all) {
    const last = out[out.length - 1];
    if (last && f <= last[1]) last[1] = Math.max(last[1], t);
    else out.push([f, t]);
  }
  return out;
}

export const watchedSecondsOf = (w: WatchedIntervals): number => w.reduce((s, [f, t]) => s + (t - f), 0);

/** Completed: at least 90 % of the duration actually watched (never by jumping to the end). */
export const isWatchedEnough = (w: WatchedIntervals, duration: number): boolean =>
  duration > 0 && watchedSecondsOf(w) >= duration * LEARNING_COMPLETE_SHARE;
