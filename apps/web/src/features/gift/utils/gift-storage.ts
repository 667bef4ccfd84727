import type { GiftPurchase } from '@divan/core';

/**
 * What the gift screens keep in this tab (sessionStorage: gone with the tab, never shared with another):
 * the code shown once, so a reload of the return page still shows it, and the buy form's draft, so coming
 * back from Ajustes › Pagos or from a canceled payment finds what was typed. Storage may be refused
 * (private mode, quotas): a copy in memory serves this page's life then.
 */
const memory = new Map<string, string>();

function read(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return memory.get(key) ?? null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, value);
  } catch {
    if (value === null) memory.delete(key);
    else memory.set(key, value);
  }
}

function parse<T>(raw: string | null, valid: (v: unknown) => v is T): T | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return valid(value) ? value : null;
  } catch {
    return null;
  }
}

const revealedKey = (sessionId: string) => `divan:gift-code:${sessionId}`;
const isRevealed = (v: unknown): v is GiftPurchase =>
  typeof v === 'object' && v !== null && (v as GiftPurchase).status === 'paid' && typeof (v as GiftPurchase).code === 'string';

/** The paid purchase with its code, as the server showed it the one time it does. */
export const keptPurchaseOf = (sessionId: string): GiftPurchase | null => parse(read(revealedKey(sessionId)), isRevealed);

/** Kept only when it carries the code: a later read (code null) never replaces it. */
export function keepPurchase(sessionId: string, purchase: GiftPurchase): void {
  if (purchase.status === 'paid' && purchase.code) write(revealedKey(sessionId), JSON.stringify(purchase));
}

/** The buy form as typed (the months as chosen), per workspace. */
export type GiftDraft = { months: number; recipientName: string; recipientEmail: string; message: string };
const draftKey = (wid: string) => `divan:gift-draft:${wid}`;
const isDraft = (v: unknown): v is GiftDraft =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as GiftDraft).months === 'number' &&
  (['recipientName', 'recipientEmail', 'message'] as const).every((k) => typeof (v as GiftDraft)[k] === 'string');

export const draftOf = (wid: string): GiftDraft | null => parse(read(draftKey(wid)), isDraft);
export const keepDraft = (wid: string, draft: GiftDraft) => write(draftKey(wid), JSON.stringify(draft));
export const forgetDraft = (wid: string) => write(draftKey(wid), null);
