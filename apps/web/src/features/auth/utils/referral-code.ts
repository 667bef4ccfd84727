// The referral code's rules for the sign-up page, from core's Zod-free entry (`@divan/core/rules`): the
// contracts' module would bring Zod (~26 KB gzipped) into the page before anyone types.
import { isReferralCode, normalizeReferralCode, REFERRAL_FRIEND_DAYS } from '@divan/core/rules';

export const FRIEND_DAYS = REFERRAL_FRIEND_DAYS;
export const normalizeCode = normalizeReferralCode;
export const isCode = isReferralCode;
