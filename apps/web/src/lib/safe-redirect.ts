/** Only same-site paths: `?redirect=https://evil.example` or `//evil.example` must not leave the app. */
export function safeRedirect(target: string | null | undefined, fallback = '/'): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return fallback;
  if (target.startsWith('/sign-in') || target.startsWith('/sign-up')) return fallback;
  return target;
}
