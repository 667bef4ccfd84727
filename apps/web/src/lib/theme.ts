import type { Theme } from '@/stores/settings-store';

export type ResolvedTheme = 'light' | 'dark';

const darkQuery = () => window.matchMedia('(prefers-color-scheme: dark)');

export function resolveTheme(theme: Theme, prefersDark: boolean): ResolvedTheme {
  if (theme === 'system') return prefersDark ? 'dark' : 'light';
  return theme;
}

/** Puts `light` or `dark` on <html> (spec §4), the same thing index.html does before first paint. */
export function applyTheme(theme: Theme): ResolvedTheme {
  const resolved = resolveTheme(theme, darkQuery().matches);
  const root = document.documentElement;
  root.classList.remove(resolved === 'dark' ? 'light' : 'dark');
  root.classList.add(resolved);
  root.style.colorScheme = resolved;
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', resolved === 'dark' ? '#151412' : '#faf8f5');
  return resolved;
}

/** Calls back when the OS switches between light and dark, for the "system" theme to follow live. */
export function onSystemThemeChange(callback: () => void): () => void {
  const query = darkQuery();
  query.addEventListener('change', callback);
  return () => query.removeEventListener('change', callback);
}
