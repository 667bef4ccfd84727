/**
 * The first signed-in screens (the shell and the pages outside it; the dashboard and the others load through
 * the shell layout's `shellScreen`, router.tsx `inShell`),
 * imported from here and not from the route table: each `import()` carries the list of files to preload
 * with it, and this chunk's lists are downloaded only by someone signed in (the sign-in page stays
 * within its budget, apps/web/docs/bundle-budget.md). The others are in more-screens.ts.
 */
export const screens = {
  focusLayout: () => import('./layouts/focus-layout'),
  shellLayout: () => import('./layouts/shell-layout'),
  paymentSuccess: () => import('@/features/plans/routes/payment-success-route'),
  giftPurchased: () => import('@/features/gift/routes/gift-purchased-route'),
} satisfies Record<string, () => Promise<object>>;
