// The gift code's rules from core's Zod-free entry: the public `/gift/{code}` page opens from a mail,
// signed out, and the contracts' module would bring Zod with it.
export { formatGiftCode, monthsLabel, normalizeGiftCode } from '@divan/core/rules';
