// Referral (issue 27, slice 5; spec §2 settings `invite`, §9): a personal code per therapist, the friend's
// free month (30 more trial days) and the referrer's month off once the friend pays a first non-zero
// invoice — a credit line on the referrer's next invoice, so the taxable base drops.
import { z } from 'zod';
import { isReferralCode, normalizeReferralCode } from './referral-code';

export const referralCodeField = z
  .string({ error: 'Escribe el código de invitación' })
  .max(40, { error: 'El código de invitación tiene 8 letras y números' })
  .transform(normalizeReferralCode)
  .refine(isReferralCode, { error: 'El código de invitación tiene 8 letras y números' });

/** The same mailbox written another way (case, `+etiqueta`, Gmail's dots): a self-referral. */
export function mailboxOf(email: string): string {
  const [local = '', domain = ''] = email.trim().toLowerCase().split('@');
  const base = local.split('+')[0]!;
  const gmail = domain === 'gmail.com' || domain === 'googlemail.com';
  return `${gmail ? base.replace(/\./g, '') : base}@${gmail ? 'gmail.com' : domain}`;
}

/** POST /workspaces/:id/referral — a friend's code entered by someone who already has an account. */
export const redeemReferralBody = z.object({ code: referralCodeField });
export type RedeemReferralBody = z.input<typeof redeemReferralBody>;

/** GET /referrals/:code (public) — who invites, for the sign-up page's welcome. */
export const referralInviterResponse = z.object({ firstName: z.string() });
export type ReferralInviter = z.infer<typeof referralInviterResponse>;

/**
 * `joined`: on trial, nothing paid yet; `rewarded`: paid a first invoice, the month off earned; `refused`:
 * paid, but no month off — the friend is the referrer under another account (`refusedReason`).
 */
export const REFERRAL_STATUSES = ['joined', 'rewarded', 'refused'] as const;
export type ReferralStatus = (typeof REFERRAL_STATUSES)[number];
/** Why a friend's payment earned nothing: `same_card`, the card that paid it is also one of the referrer's. */
export const REFERRAL_REFUSED_REASONS = ['same_card'] as const;
export type ReferralRefusedReason = (typeof REFERRAL_REFUSED_REASONS)[number];
/** The referrer's month off: on the next invoice of their plan, or waiting until they have one. */
export const REFERRAL_REWARD_STATES = ['waiting_plan', 'applied'] as const;
export type ReferralRewardState = (typeof REFERRAL_REWARD_STATES)[number];

export const referralFriend = z.object({
  id: z.uuid(),
  firstName: z.string(),
  /** Masked: `l•••@ejemplo.es`. */
  email: z.string(),
  /** ISO instant they joined with the code. */
  joinedAt: z.string(),
  status: z.enum(REFERRAL_STATUSES),
  /** Set when `status` is `refused`. */
  refusedReason: z.enum(REFERRAL_REFUSED_REASONS).nullable(),
  /** Earned once the friend paid a first invoice: the month off, cents before VAT. */
  reward: z.object({ amount: z.number().int(), state: z.enum(REFERRAL_REWARD_STATES) }).nullable(),
});
export type ReferralFriend = z.infer<typeof referralFriend>;

/** GET /me/referral — Ajustes › Invitar. */
export const referralResponse = z.object({
  code: z.string(),
  /** `${PUBLIC_URL}/sign-up?ref=CODE` */
  link: z.string(),
  /** Who invited this person, once a code was used. */
  invitedBy: z.object({ firstName: z.string(), joinedAt: z.string() }).nullable(),
  friends: z.array(referralFriend),
  /** Months off earned, in cents before VAT. */
  earned: z.number().int(),
});
export type Referral = z.infer<typeof referralResponse>;

/** A friend's code redeemed: the trial's new end. */
export const redeemReferralResponse = z.object({ freeTrialEnd: z.string() });
export type RedeemReferral = z.infer<typeof redeemReferralResponse>;

/** `laura.gomez@ejemplo.es` → `l•••@ejemplo.es`: enough to recognise, not to harvest. */
export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}•••@${domain}`;
}
