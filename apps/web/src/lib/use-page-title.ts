import { useEffect } from 'react';

export const APP_NAME = 'Diván';

/** "Pacientes · Diván", "Laura Gómez · Diván": the parts given, most specific first, then the app. */
export const pageTitle = (...parts: (string | null | undefined)[]): string =>
  [...parts.filter((p): p is string => !!p?.trim()), APP_NAME].join(' · ');

/**
 * Every screen names itself in the tab, the history and for screen readers. Called by each route
 * component; the title stays until the next screen sets its own.
 */
export function usePageTitle(...parts: (string | null | undefined)[]): void {
  const title = pageTitle(...parts);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
