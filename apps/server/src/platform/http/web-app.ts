import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { declarePublic } from '../auth/access';
import { body } from './error-handler';

/**
 * Serves the built web app: hashed assets cached for a year, `index.html` and `version.json` never
 * cached, and the app itself (`index.html`) for `/` and every screen path (its router shows the 404
 * page for a screen it does not know).
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
    if (index && servesApp(req.method, req.url, req.headers.accept)) {
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(index);
    }
    return reply.status(404).send(body('not_found'));
  });
}

/**
 * Whether a request the routes did not answer gets the app: a GET or HEAD outside `/api/` and
 * `/dev/` for a screen, whatever its `Accept` header (curl, uptime monitors and link previews accept
 * any type, or send no header). A screen is a path whose last segment has no file extension (`/`,
 * `/patients`, `/patients/:id/history`); a file path (`/favicon.ico`, `/robots.txt`) gets the app
 * only when a browser navigates to it (`Accept: text/html`). Nothing under `/assets/` ever does: a
 * missing hashed chunk must fail as a 404, not load HTML as a script.
 */
export function servesApp(method: string, url: string, accept: string | undefined): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  const path = url.split(/[?#]/, 1)[0] ?? '';
  if (/^\/(api|dev|assets)(\/|$)/.test(path)) return false;
  const last = path.slice(path.lastIndexOf('/') + 1);
  return !/\.[A-Za-z0-9]+$/.test(last) || Boolean(accept?.includes('text/html'));
}

/** CSP hashes of the inline scripts of index.html (the theme script that avoids a flash). */
export function inlineScriptHashes(dist: string | undefined): string[] {
  if (!dist || !existsSync(join(dist, 'index.html'))) return [];
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    (m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`,
  );
}
