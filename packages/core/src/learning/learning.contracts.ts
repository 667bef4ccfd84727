// What the training library's API takes and answers (issue 29). Prices are integer cents.
import { z } from 'zod';
import { optionalText, requiredText, textField } from '../fields';
import { msg } from '../messages';
import {
  HEX_COLOUR,
  LEARNING_CATEGORIES,
  LEARNING_DESCRIPTION_MAX,
  LEARNING_PREVIEW_MAX_SECONDS,
  LEARNING_PRICE_MAX,
  LEARNING_PRICE_MIN,
  LEARNING_TAG_MAX,
  LEARNING_TAGS_MAX,
  LEARNING_TITLE_MAX,
  LEARNING_UPLOAD_MAX_BYTES,
  parseVimeoUrl,
} from './learning';

export const learningMessages = {
  invalidColour: 'Color inválido: escribe un color hexadecimal de 6 cifras, como #2F6F5E',
  invalidVimeo: 'URL de Vimeo inválida: usa la forma https://vimeo.com/123456789 o https://player.vimeo.com/video/123456789',
  categoriesRequired: 'Elige al menos una categoría',
  priceRange: 'El precio sin IVA debe estar entre 0,42 € y 9.999,99 € (con IVA, un pago con tarjeta debe superar 0,50 €)',
} as const;

const category = z.enum(LEARNING_CATEGORIES, { error: msg.invalidEnum() });

/** Spec §4: a video the caller has not bought, or has. */
export const LEARNING_SHELVES = ['in_progress', 'favorites', 'completed', 'purchased'] as const;
export type LearningShelf = (typeof LEARNING_SHELVES)[number];

export const learningListQuery = z.object({
  q: textField('Búsqueda')
    .trim()
    .max(100, { error: msg.maxLength(100) })
    .optional(),
  category: category.optional(),
  tag: textField('Etiqueta')
    .trim()
    .max(LEARNING_TAG_MAX, { error: msg.maxLength(LEARNING_TAG_MAX) })
    .optional(),
  /** «Mi formación»: En curso, Favoritos, Completados (and what was bought). */
  shelf: z.enum(LEARNING_SHELVES, { error: msg.invalidEnum() }).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type LearningListQuery = z.input<typeof learningListQuery>;

const progress = z.object({
  positionSeconds: z.number(),
  watchedSeconds: z.number(),
  completedAt: z.string().nullable(),
  updatedAt: z.string(),
});
export type LearningProgress = z.infer<typeof progress>;

export const learningCard = z.object({
  id: z.uuid(),
  title: z.string(),
  colour: z.string(),
  /** The transparent icon drawn on the card's colour, or null. */
  iconUrl: z.string().nullable(),
  categories: z.array(category),
  tags: z.array(z.string()),
  /** Cents, VAT excluded (what the uploader typed) and included (what is shown and charged). */
  priceCents: z.number().int(),
  priceWithVatCents: z.number().int(),
  previewSeconds: z.number().int(),
  durationSeconds: z.number().nullable(),
  hosting: z.enum(['file', 'vimeo']),
  purchased: z.boolean(),
  bookmarked: z.boolean(),
  progress: progress.nullable(),
});
export type LearningCard = z.infer<typeof learningCard>;

export const learningListResponse = z.object({
  items: z.array(learningCard),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Every tag of the published catalogue, for the filter. */
  tags: z.array(z.string()),
});
export type LearningList = z.infer<typeof learningListResponse>;

export const learningShortListResponse = z.object({ items: z.array(learningCard) });

/**
 * What this video costs the workspace asked about (`?workspaceId=`), by its billing data: 21 % IVA in Spain,
 * none for an EU business with a VAT id (reverse charge) or outside the IVA territory. Absent or null when no
 * workspace was asked, the caller is not in it, or it has no billing data yet: the price with IVA applies.
 */
export const learningCharge = z.object({
  baseCents: z.number().int(),
  vatCents: z.number().int(),
  totalCents: z.number().int(),
  vatRate: z.number().int(),
  taxCase: z.enum(['spain', 'eu_consumer', 'reverse_charge', 'outside_vat_territory', 'outside_eu']),
  /** The invoice's legend when no IVA is charged («Inversión del sujeto pasivo», …). */
  legend: z.string().nullable(),
});
export type LearningCharge = z.infer<typeof learningCharge>;

export const learningVideoQuery = z.object({
  /** The workspace whose billing data price the purchase (the one «Continuar y pagar» charges). */
  workspaceId: z.uuid({ error: 'Espacio no válido' }).optional(),
});

export const learningVideoResponse = learningCard.extend({
  description: z.string(),
  uploader: z.object({ name: z.string() }),
  publishedAt: z.string().nullable(),
  related: z.array(learningCard),
  charge: learningCharge.nullable().optional(),
});
export type LearningVideo = z.infer<typeof learningVideoResponse>;

/**
 * Where the player reads from: the preview rendition for everyone (null when preview seconds are 0 or it
 * is not made yet), the full video for buyers only — a signed link that expires, or the Vimeo player's URL.
 */
export const learningMediaResponse = z.object({
  preview: z.object({ url: z.string(), seconds: z.number().int() }).nullable(),
  full: z
    .discriminatedUnion('kind', [
      z.object({ kind: z.literal('file'), url: z.string(), expiresAt: z.string() }),
      z.object({ kind: z.literal('vimeo'), url: z.string() }),
    ])
    .nullable(),
});
export type LearningMedia = z.infer<typeof learningMediaResponse>;

export const learningProgressBody = z.object({
  positionSeconds: z
    .number({ error: msg.invalid('Posición') })
    .min(0)
    .max(100_000),
  /** The stretches played since the last save, [from, to) in seconds of the video. */
  watched: z
    .array(z.tuple([z.number().min(0).max(100_000), z.number().min(0).max(100_000)]))
    .max(200, { error: msg.arrayMax(200) })
    .default([]),
  /** A Vimeo-hosted video's duration as its player reports it (a file's is the server's own). */
  durationSeconds: z.number().positive().max(36_000).optional(),
});
export type LearningProgressBody = z.input<typeof learningProgressBody>;
export const learningProgressResponse = progress;

export const learningPurchase = z.object({
  id: z.uuid(),
  videoId: z.uuid(),
  title: z.string(),
  baseCents: z.number().int(),
  vatCents: z.number().int(),
  totalCents: z.number().int(),
  purchasedAt: z.string(),
  refundedAt: z.string().nullable(),
  /** Diván's invoice for it (its number), once issued. */
  invoiceNumber: z.string().nullable(),
  invoiceId: z.uuid().nullable(),
});
export type LearningPurchase = z.infer<typeof learningPurchase>;
export const learningPurchasesResponse = z.object({ items: z.array(learningPurchase) });

/** «Continuar y pagar»: bought, or the bank asks for authentication on the provider's page first. */
export const learningPurchaseResponse = z.discriminatedUnion('status', [
  z.object({ status: z.literal('purchased'), purchase: learningPurchase }),
  z.object({ status: z.literal('authenticate'), url: z.string() }),
]);
export type LearningPurchaseResult = z.infer<typeof learningPurchaseResponse>;

// --- The upload tool (Diván's staff) ---

const tags = z
  .array(requiredText('etiqueta', LEARNING_TAG_MAX), { error: msg.required('etiquetas') })
  .max(LEARNING_TAGS_MAX, { error: msg.arrayMax(LEARNING_TAGS_MAX) })
  .transform((t) => [...new Set(t.map((x) => x.toLowerCase()))]);

const videoFields = {
  title: requiredText('título', LEARNING_TITLE_MAX),
  description: requiredText('descripción', LEARNING_DESCRIPTION_MAX),
  colour: textField('color', { error: msg.required('color') })
    .trim()
    .regex(HEX_COLOUR, { error: learningMessages.invalidColour }),
  vimeoUrl: optionalText('URL de Vimeo', 300).refine((v) => v == null || parseVimeoUrl(v) !== null, {
    error: learningMessages.invalidVimeo,
  }),
  categories: z
    .array(category, { error: learningMessages.categoriesRequired })
    .min(1, { error: learningMessages.categoriesRequired })
    .max(LEARNING_CATEGORIES.length),
  tags,
  priceCents: z
    .number({ error: msg.required('precio') })
    .int({ error: learningMessages.priceRange })
    .min(LEARNING_PRICE_MIN, { error: learningMessages.priceRange })
    .max(LEARNING_PRICE_MAX, { error: learningMessages.priceRange }),
  previewSeconds: z
    .number({ error: msg.required('segundos de vista previa') })
    .int({ error: msg.invalid('Segundos de vista previa') })
    .min(0, { error: msg.invalid('Segundos de vista previa') })
    .max(LEARNING_PREVIEW_MAX_SECONDS, { error: msg.max(LEARNING_PREVIEW_MAX_SECONDS) }),
};
export const learningVideoBody = z.object(videoFields);
export type LearningVideoBody = z.input<typeof learningVideoBody>;
export const learningVideoPatch = z.object(videoFields).partial();

export const LEARNING_VIDEO_STATES = ['draft', 'processing', 'failed', 'published', 'unpublished'] as const;
export type LearningVideoState = (typeof LEARNING_VIDEO_STATES)[number];

export const learningAdminVideo = learningCard.extend({
  description: z.string(),
  vimeoUrl: z.string().nullable(),
  status: z.enum(LEARNING_VIDEO_STATES),
  /** Why the last transcoding failed, in Spanish. */
  failure: z.string().nullable(),
  hasFile: z.boolean(),
  publishedAt: z.string().nullable(),
  purchases: z.number().int(),
  createdAt: z.string(),
});
export type LearningAdminVideo = z.infer<typeof learningAdminVideo>;
export const learningAdminListResponse = z.object({ items: z.array(learningAdminVideo) });

/** The staff's refunds screen: recent purchases, or a buyer's by email (part of it, case ignored). */
export const learningAdminPurchasesQuery = z.object({
  email: textField('Correo')
    .trim()
    .max(254, { error: msg.maxLength(254) })
    .optional(),
});
export type LearningAdminPurchasesQuery = z.input<typeof learningAdminPurchasesQuery>;

export const learningAdminPurchase = learningPurchase.extend({
  status: z.enum(['paid', 'refunded']),
  buyer: z.object({ id: z.uuid(), name: z.string(), email: z.string() }),
  /** The saved card charged without the buyer, or the provider's page (the bank asked for authentication). */
  paidOn: z.enum(['saved_card', 'checkout']),
});
export type LearningAdminPurchase = z.infer<typeof learningAdminPurchase>;
export const learningAdminPurchasesResponse = z.object({ items: z.array(learningAdminPurchase) });

/** A file's upload begun: its size; the pieces follow in order (`PUT …/upload?offset=`). */
export const learningUploadBody = z.object({
  fileName: requiredText('nombre del archivo', 200),
  size: z.number().int().min(1).max(LEARNING_UPLOAD_MAX_BYTES, { error: 'El archivo es demasiado grande (máximo 8 GB)' }),
});
export const learningUploadState = z.object({
  size: z.number().int(),
  /** Bytes received so far: where the next piece starts (a resumed upload asks for it). */
  received: z.number().int(),
  chunkBytes: z.number().int(),
});
export type LearningUploadState = z.infer<typeof learningUploadState>;
