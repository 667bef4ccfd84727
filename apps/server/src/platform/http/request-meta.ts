import type { FastifyRequest } from 'fastify';

/** Who sent a request, as a consent's evidence records it: the address and the browser, nothing else. */
export type RequestMeta = { ip: string | null; userAgent: string | null };

/** The request's address and its User-Agent (cut to 500 characters). */
export const metaOf = (req: FastifyRequest): RequestMeta => ({
  ip: req.ip ?? null,
  userAgent: req.headers['user-agent']?.slice(0, 500) ?? null,
});
