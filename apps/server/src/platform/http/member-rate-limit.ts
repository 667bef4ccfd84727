import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { AppError } from '../errors';
import { createRateLimiter, type RateLimiter } from './rate-limiter';

export const DEFAULT_UPLOADS_PER_MINUTE = 30;
export const DEFAULT_EXPORTS_PER_MINUTE = 10;

const MESSAGES = {
  upload: 'Has subido demasiados archivos seguidos. Espera un minuto y vuelve a intentarlo.',
  export: 'Has pedido demasiadas exportaciones seguidas. Espera un minuto y vuelve a intentarlo.',
} as const;

type Kind = keyof typeof MESSAGES;

/**
 * Uploads (every route that takes multipart: documents, imports, pictures, logos) and exports (every
 * `…/export.*` route) are heavy for the process that also runs PGlite: each member gets one budget per
 * minute for each kind, shared by all the routes of that kind (and by every process through Redis when
 * REDIS_URL is set), checked before the body is read. Past it: 429 `too_many_requests` in Spanish.
 * Call before the routes are registered: routes are classified as they are added.
 */
export async function registerMemberRateLimits(
  app: FastifyInstance,
  opts: { uploadsPerMinute?: number; exportsPerMinute?: number; redisUrl?: string },
) {
  const limiters: Record<Kind, RateLimiter> = {
    upload: await createRateLimiter({
      max: opts.uploadsPerMinute ?? DEFAULT_UPLOADS_PER_MINUTE,
      windowMs: 60_000,
      prefix: 'divan:rl:upload',
      redisUrl: opts.redisUrl,
    }),
    export: await createRateLimiter({
      max: opts.exportsPerMinute ?? DEFAULT_EXPORTS_PER_MINUTE,
      windowMs: 60_000,
      prefix: 'divan:rl:export',
      redisUrl: opts.redisUrl,
    }),
  };
  app.addHook('onRoute', (route: RouteOptions) => {
    const kind = kindOf(route);
    if (!kind) return;
    const check = async (req: FastifyRequest) => {
      if (!req.user) return;
      try {
        await limiters[kind].hit(req.user.id);
      } catch (err) {
        if (err instanceof AppError && err.code === 'too_many_requests') throw new AppError('too_many_requests', undefined, MESSAGES[kind]);
        throw err;
      }
    };
    const existing = route.preHandler ? [route.preHandler].flat() : [];
    route.preHandler = [check, ...existing];
  });
  app.addHook('onClose', async () => {
    await Promise.all(Object.values(limiters).map((l) => l.close()));
  });
}

export function kindOf(route: Pick<RouteOptions, 'url' | 'schema'>): Kind | undefined {
  const consumes = (route.schema as { consumes?: string[] } | undefined)?.consumes;
  if (consumes?.includes('multipart/form-data')) return 'upload';
  if (/\/export(\.\w+)?$/.test(route.url)) return 'export';
  return undefined;
}
