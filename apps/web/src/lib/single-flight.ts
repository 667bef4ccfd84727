/**
 * Wraps an async function so concurrent callers share one in-flight call: ten requests that find the
 * access token expired trigger one refresh, not ten (a second refresh would use a rotated-away token).
 */
export function singleFlight<T>(fn: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<T> | null = null;
  return () => {
    inFlight ??= fn().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };
}
