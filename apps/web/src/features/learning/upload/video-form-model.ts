import { z } from 'zod';
import {
  centsToEuros,
  eurosToCents,
  learningPriceWithVat,
  learningVideoBody,
  msg,
  type LearningAdminVideo,
  type LearningVideoBody,
} from '@divan/core';

/**
 * The upload form as typed (the price in euros, the tags as «ansiedad, duelo», the seconds as text) and its
 * way to the body. The rules are the contract's (`learningVideoBody`): its Spanish messages land on the
 * field they concern, so the form only converts.
 */
export type VideoFormValues = {
  title: string;
  description: string;
  colour: string;
  vimeoUrl: string;
  categories: string[];
  tags: string;
  price: string;
  previewSeconds: string;
};

export const VIDEO_FORM_FIELDS = ['title', 'description', 'colour', 'vimeoUrl', 'categories', 'tags', 'price', 'previewSeconds'] as const;
/** The body's names as the form's. */
const FIELD_OF: Record<string, (typeof VIDEO_FORM_FIELDS)[number]> = { priceCents: 'price' };

export const emptyVideoForm = (): VideoFormValues => ({
  title: '',
  description: '',
  colour: '#2F6F5E',
  vimeoUrl: '',
  categories: [],
  tags: '',
  price: '',
  previewSeconds: '60',
});

export const formOfVideo = (v: LearningAdminVideo): VideoFormValues => ({
  title: v.title,
  description: v.description,
  colour: v.colour,
  vimeoUrl: v.vimeoUrl ?? '',
  categories: v.categories,
  tags: v.tags.join(', '),
  price: centsToEuros(v.priceCents),
  previewSeconds: String(v.previewSeconds),
});

export const splitTags = (text: string) =>
  text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

/** A whole number as typed, or NaN (the contract then says what is wrong with it). */
const whole = (text: string) => (/^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN);

/** The price shown next to the field: IVA included, or null while what is typed is not an amount. */
export function priceWithVatOf(price: string): number | null {
  const cents = eurosToCents(price);
  return cents === null || Number.isNaN(cents) || cents <= 0 ? null : learningPriceWithVat(cents);
}

const shape = z.object({
  title: z.string(),
  description: z.string(),
  colour: z.string(),
  vimeoUrl: z.string(),
  categories: z.array(z.string()),
  tags: z.string(),
  price: z.string(),
  previewSeconds: z.string(),
});

export const videoFormSchema = shape.transform((v, ctx): z.output<typeof learningVideoBody> => {
  const cents = eurosToCents(v.price);
  if (Number.isNaN(cents)) ctx.addIssue({ code: 'custom', message: msg.invalid('Precio'), path: ['price'] });
  const body = {
    title: v.title,
    description: v.description,
    colour: v.colour.trim(),
    vimeoUrl: v.vimeoUrl,
    categories: v.categories,
    tags: splitTags(v.tags),
    priceCents: cents ?? undefined,
    previewSeconds: whole(v.previewSeconds),
  } satisfies Record<keyof LearningVideoBody, unknown>;
  const parsed = learningVideoBody.safeParse(body);
  if (parsed.success && !Number.isNaN(cents)) return parsed.data;
  for (const issue of parsed.error?.issues ?? []) {
    const key = String(issue.path[0] ?? '');
    if (key === 'priceCents' && Number.isNaN(cents)) continue;
    ctx.addIssue({ code: 'custom', message: issue.message, path: [FIELD_OF[key] ?? key] });
  }
  return z.NEVER;
});
