import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { declarePublic } from '../auth/access';
import { body } from './error-handler';

/**
 * Another HTML entry of the build, served for the screen paths under `prefix` instead of `index.html`
 * (`index.html` when the build has no such file). `frameAncestors` names the origins that may frame
 * the page at a path besides ours: the CSP's `frame-ancestors` lists them, and X-Frame-Options goes.
 */
export type WebPage = {
  prefix: string;
  file: string;
  frameAncestors?: (path: string) => Promise<string[]>;
  /** Files of the build other websites load (`<script src>` on a therapist's site): any origin may read them (CORP). */
  sharedFiles?: string[];
};

/**
 * Serves the built web app: hashed assets cached for a year, `index.html` and `version.json` never
 * cached, and the app itself (`index.html`) for `/` and every screen path (its router shows the 404
 * page for a screen it does not know); a `WebPage`'s file for the paths under its prefix (and the prefix
 * without its last slash: `/p` as `/p/`).
 */
export async function registerWebApp(app: FastifyInstance, dist: string | undefined, pages: WebPage[] = []) {
  const index = dist && existsSync(join(dist, 'index.html')) ? readFileSync(join(dist, 'index.html'), 'utf8') : null;
  const extra = pages.map((page) => ({
    ...page,
    html: dist && existsSync(join(dist, page.file)) ? readFileSync(join(dist, page.file), 'utf8') : index,
  }));
  if (dist && index) {
    await app.register(async (scope) => {
      declarePublic(scope);
      const shared = new Set(pages.flatMap((p) => p.sharedFiles ?? []));
      if (shared.size)
        scope.addHook('onSend', async (req, reply) => {
          if (shared.has(req.url.split(/[?#]/, 1)[0] ?? '')) reply.header('cross-origin-resource-policy', 'cross-origin');
        });
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
  app.setNotFoundHandler(async (req, reply) => {
    // A websocket handshake never gets the app's HTML (the browser would only say the handshake failed).
    if (index && !req.ws && servesApp(req.method, req.url, req.headers.accept)) {
      const path = req.url.split(/[?#]/, 1)[0] ?? '';
      const page = extra.find((p) => path.startsWith(p.prefix) || path === p.prefix.replace(/\/$/, ''));
      if (page?.html && page.frameAncestors) framedBy(reply, await page.frameAncestors(path));
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(page?.html ?? index);
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

/** `frame-ancestors 'self' <origins>` in the page's CSP; without X-Frame-Options when others may frame it. */
function framedBy(reply: FastifyReply, origins: string[]) {
  const csp = reply.getHeader('content-security-policy');
  if (typeof csp === 'string') {
    const directive = `frame-ancestors ${["'self'", ...origins].join(' ')}`;
    reply.header(
      'content-security-policy',
      /frame-ancestors [^;]*/.test(csp) ? csp.replace(/frame-ancestors [^;]*/, directive) : `${csp};${directive}`,
    );
  }
  if (origins.length) reply.removeHeader('x-frame-options');
}

/** CSP hashes of the inline scripts of index.html (the theme script that avoids a flash) and the other HTML entries named. */
export function inlineScriptHashes(dist: string | undefined, files: string[] = []): string[] {
  const hashes = new Set<string>();
  for (const file of ['index.html', ...files]) {
    if (!dist || !existsSync(join(dist, file))) continue;
    const html = readFileSync(join(dist, file), 'utf8');
    for (const m of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g))
      hashes.add(`'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`);
  }
  return [...hashes];
}
