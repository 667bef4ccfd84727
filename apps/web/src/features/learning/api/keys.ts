import type { LearningListQuery } from '@divan/core';

/**
 * The library is the signed-in person's own (no workspace in its paths), so its keys start with 'learning'
 * and the cache is dropped with the rest on sign-out.
 */
export const learningKeys = {
  all: ['learning'] as const,
  lists: () => [...learningKeys.all, 'list'] as const,
  list: (query: LearningListQuery) => [...learningKeys.lists(), query] as const,
  popular: () => [...learningKeys.all, 'popular'] as const,
  continue: () => [...learningKeys.all, 'continue'] as const,
  video: (id: string) => [...learningKeys.all, 'video', id] as const,
  media: (id: string) => [...learningKeys.all, 'media', id] as const,
  purchases: () => [...learningKeys.all, 'purchases'] as const,
  access: () => [...learningKeys.all, 'admin-access'] as const,
  admin: () => [...learningKeys.all, 'admin-videos'] as const,
  /** The staff's refunds screen: the latest purchases, or a buyer's by email ('' for the latest). */
  adminPurchases: (email?: string) => [...learningKeys.all, 'admin-purchases', ...(email === undefined ? [] : [email])] as const,
};

export const L = '/learning';
export const videoPath = (id: string) => `${L}/videos/${encodeURIComponent(id)}`;
export const adminPurchasesPath = (id?: string) => `${L}/admin/purchases${id ? `/${encodeURIComponent(id)}/refund` : ''}`;
export const adminPath = (id?: string) => `${L}/admin/videos${id ? `/${encodeURIComponent(id)}` : ''}`;
