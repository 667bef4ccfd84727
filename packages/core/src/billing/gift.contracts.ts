// Gift codes (issue 27 slice 5; spec §2 `/gift/{code}`): months of Premium bought for someone — Checkout
// in payment mode, Diván's invoice with IVA at the sale (a single-purpose voucher) — a random code shown
// once to the buyer and mailed, stored as its keyed hash, redeemed once: the months are added to the
// free trial of a workspace without a paid plan (the trial has Premium's features), follow a paid plan
// whose renewal is off, or are taken off the next invoice of one that renews.
import { z } from 'zod';
import { GIFT_MESSAGE_MAX, GIFT_MONTHS, isGiftCode, normalizeGiftCode } from './gift-code';

/** In a path, a malformed code reads as one that does not exist (`gift_not_found`): the page says the same. */
export const giftCodeParam = z.object({
  code: z.string().max(200, { error: 'El código de regalo no es válido' }).transform(normalizeGiftCode),
});

/** POST /workspaces/:id/gifts/checkout — paid by the workspace (invoiced to its billing data). */
export const giftCheckoutBody = z.object({
  months: z.union(
    GIFT_MONTHS.map((m) => z.literal(m)),
    { error: 'Elige 1, 3, 6 o 12 meses' },
  ),
  /** Mailed the code too (the buyer always is). */
  recipientEmail: z
    .email({ error: 'El email no es válido' })
    .max(254)
    .nullable()
    .optional()
    .or(z.literal('').transform(() => null)),
  recipientName: z
    .string()
    .trim()
    .max(100, { error: 'Como mucho 100 caracteres' })
    .nullable()
    .optional()
    .transform((v) => v || null),
  message: z
    .string()
    .trim()
    .max(GIFT_MESSAGE_MAX, { error: `Como mucho ${GIFT_MESSAGE_MAX} caracteres` })
    .nullable()
    .optional()
    .transform((v) => v || null),
});
export type GiftCheckoutBody = z.input<typeof giftCheckoutBody>;

export const giftCheckoutResponse = z.object({ url: z.string(), sessionId: z.string() });
export type GiftCheckout = z.infer<typeof giftCheckoutResponse>;

/**
 * GET /workspaces/:id/gifts/checkout/:sessionId — what the buyer's return page waits for: `paid` once the
 * provider's webhook said so; the code itself the first time it is asked for after that (then null).
 */
export const giftPurchaseResponse = z.object({
  status: z.enum(['open', 'paid', 'expired']),
  months: z.number().int(),
  /** Cents: before VAT, the VAT, what was charged. */
  subtotal: z.number().int(),
  vat: z.number().int(),
  total: z.number().int(),
  recipientEmail: z.string().nullable(),
  /** Shown once: the code and its link, on the first read after payment. */
  code: z.string().nullable(),
  link: z.string().nullable(),
  /** The code was already shown (it is in the buyer's mail). */
  revealed: z.boolean(),
  /** ISO: redeemable until then. */
  expiresAt: z.string().nullable(),
});
export type GiftPurchase = z.infer<typeof giftPurchaseResponse>;

/** GET /gifts/:code (public) — the `/gift/{code}` page. */
export const giftViewResponse = z.object({
  status: z.enum(['available', 'redeemed', 'expired']),
  months: z.number().int(),
  fromName: z.string(),
  recipientName: z.string().nullable(),
  message: z.string().nullable(),
  expiresAt: z.string(),
});
export type GiftView = z.infer<typeof giftViewResponse>;

/**
 * POST /workspaces/:id/gifts/redeem {code} — how the gift was applied: months of free trial (added to the
 * trial, or after the paid period of a plan whose renewal is off), or a credit of what it is worth before
 * VAT on the next invoice of a plan that renews.
 */
export const redeemGiftBody = z.object({
  code: z
    .string({ error: 'Escribe el código de regalo' })
    .max(60, { error: 'El código de regalo tiene 26 letras y números' })
    .transform(normalizeGiftCode)
    .refine(isGiftCode, { error: 'El código de regalo tiene 26 letras y números' }),
});
export type RedeemGiftBody = z.input<typeof redeemGiftBody>;
export const redeemGiftResponse = z.object({
  months: z.number().int(),
  applied: z.enum(['trial', 'credit']),
  /** ISO: the trial's new end (`trial`); null for a credit. */
  freeTrialEnd: z.string().nullable(),
  /** ISO: the end of the paid period the trial's months follow (a plan whose renewal is off); else null. */
  planEnd: z.string().nullable(),
  /** Cents before VAT taken off the next invoice (`credit`): what the buyer paid before IVA; null for a trial. */
  creditCents: z.number().int().nullable(),
});
export type RedeemGift = z.infer<typeof redeemGiftResponse>;
