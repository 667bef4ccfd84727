const RELOADED_KEY = 'divan:chunk-reload';

/** After a deploy, an open tab may ask for chunks that no longer exist: one reload fixes it. */
export function isStaleChunk(error: unknown): boolean {
  return (
    error instanceof Error && /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(error.message)
  );
}

/** Reloads the page once per tab and burst of failures; false when it already did (then say so instead). */
export function reloadOnce(): boolean {
  if (sessionStorage.getItem(RELOADED_KEY)) return false;
  sessionStorage.setItem(RELOADED_KEY, '1');
  window.location.reload();
  return true;
}

/** Once the app has run for a while, a later stale-chunk error may reload again. */
export function forgetReloadLater() {
  setTimeout(() => sessionStorage.removeItem(RELOADED_KEY), 10_000);
}
