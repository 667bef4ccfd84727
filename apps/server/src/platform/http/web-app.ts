import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { declarePublic } from '../auth/access';
import { body } from './error-handler';

/**
 * Serves the built web app: hashed assets cached for a year, `index.html` and `version.json` never
 * cached, and every unknown non-API GET answered with the app (its router shows the 404 page).
 */
export async function registerWebApp(app: FastifyInstance, dist: string | undefined) {
  const index = dist && existsSync(join(dist, 'index.html')) ? readFileSync(join(dist, 'index.html'), 'utf8') : null;
  if (dist && index) {
    await app.register(async (scope) => {
      declarePublic(scope);
      await scope.register(fastifyStatic, {
        root: dist,
        wildcard: false,
        index: false,
        // .br/.gz written at build time (apps/web/scripts/precompress.mjs).
        preCompressed: true,
        // Our own header: the plugin's default (max-age=0) would override it.
        cacheControl: false,
        setHeaders(res, path) {
          res.setHeader('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
    });
  }
  app.setNotFoundHandler((req, reply) => {
    const isApi = req.url.startsWith('/api/') || req.url.startsWith('/dev/');
    if (index && req.method === 'GET' && !isApi && req.headers.accept?.includes('text/html')) {
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(index);
    }
    return reply.status(404).send(body('not_found'));
  });
}

/** CSP hashes of the inline scripts of index.html (the theme script that avoids a flash). */
export function inlineScriptHashes(dist: string | undefined): string[] {
  if (!dist || !existsSync(join(dist, 'index.html'))) return [];
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    (m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`,
  );
}
