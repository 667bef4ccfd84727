/**
 * Polls `what` until `done` says so, or `ms` pass; returns the last value either way (the caller's
 * expectation then says what was missing). For effects of background jobs.
 */
export async function until<T>(what: () => Promise<T>, done: (v: T) => boolean, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await what();
    if (done(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}
