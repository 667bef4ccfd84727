import { AppError } from '../errors';

/**
 * Fixed-window counter by key (the per-email limit of auth calls; per-IP limits come from
 * @fastify/rate-limit). Shared through Redis when REDIS_URL is set, so several processes agree.
 */
export type RateLimiter = { hit(key: string): Promise<void>; close(): Promise<void> };

export async function createRateLimiter(opts: { max: number; windowMs: number; prefix: string; redisUrl?: string }): Promise<RateLimiter> {
  if (opts.redisUrl) {
    const { Redis } = await import('ioredis');
    const redis = new Redis(opts.redisUrl, { maxRetriesPerRequest: 2 });
    return {
      async hit(key) {
        const k = `${opts.prefix}:${key.toLowerCase()}`;
        const [[, count]] = (await redis.multi().incr(k).pexpire(k, opts.windowMs, 'NX').exec()) as [[null, number]];
        if (count > opts.max) throw new AppError('too_many_requests');
      },
      async close() {
        await redis.quit();
      },
    };
  }
  const windows = new Map<string, { start: number; count: number }>();
  return {
    async hit(key) {
      const now = Date.now();
      const k = key.toLowerCase();
      let w = windows.get(k);
      if (!w || now - w.start >= opts.windowMs) {
        w = { start: now, count: 0 };
        windows.set(k, w);
        if (windows.size > 100_000) pruneOld(windows, now, opts.windowMs);
      }
      if (++w.count > opts.max) throw new AppError('too_many_requests');
    },
    async close() {
      windows.clear();
    },
  };
}

function pruneOld(windows: Map<string, { start: number }>, now: number, windowMs: number) {
  for (const [k, w] of windows) if (now - w.start >= windowMs) windows.delete(k);
}
