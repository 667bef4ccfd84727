/**
 * The companion's routes, read from the pathname: no router library on pages that must stay small.
 * `/p/` home (the connected files, or «Entrar»), `/p/connect/:token` a connect link, `/p/:fileId` a
 * connected file and `/p/:fileId/:section` one of its sections; `/p/cuestionario/:token` a mailed outcome
 * measure (issue 32), answered without signing in.
 */
export const SECTIONS = ['chat', 'sesiones', 'documentos', 'consentimientos', 'facturas'] as const;
export type Section = (typeof SECTIONS)[number];

export type Route =
  | { name: 'home' }
  | { name: 'connect'; token: string }
  | { name: 'measure'; token: string }
  | { name: 'file'; fileId: string; section: Section | null }
  | { name: 'not-found' };

export const BASE = '/p';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function parseRoute(pathname: string): Route {
  if (pathname !== BASE && !pathname.startsWith(`${BASE}/`)) return { name: 'not-found' };
  const parts = pathname
    .slice(BASE.length)
    .split('/')
    .filter(Boolean)
    .map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        return p;
      }
    });
  if (parts.length === 0) return { name: 'home' };
  if (parts[0] === 'connect') return parts.length === 2 ? { name: 'connect', token: parts[1]! } : { name: 'not-found' };
  if (parts[0] === 'cuestionario') return parts.length === 2 ? { name: 'measure', token: parts[1]! } : { name: 'not-found' };
  if (!UUID.test(parts[0]!) || parts.length > 2) return { name: 'not-found' };
  if (parts.length === 1) return { name: 'file', fileId: parts[0]!, section: null };
  const section = SECTIONS.find((s) => s === parts[1]);
  return section ? { name: 'file', fileId: parts[0]!, section } : { name: 'not-found' };
}

export function hrefOf(...parts: string[]): string {
  return parts.length ? [BASE, ...parts.map(encodeURIComponent)].join('/') : `${BASE}/`;
}
