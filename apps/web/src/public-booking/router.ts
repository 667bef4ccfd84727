/**
 * The public booking pages' routes, read from the pathname (spec §2): no router library on a page
 * that must stay small. `manage` is not a workspace id (those are UUIDs).
 */
export type Route =
  | { name: 'workspace'; workspaceId: string }
  | { name: 'therapist'; workspaceId: string; therapistId: string }
  | { name: 'service'; workspaceId: string; therapistId: string; serviceId: string }
  | { name: 'manage'; token: string }
  | { name: 'not-found' };

export const BASE = '/v1/reservations';

export function parseRoute(pathname: string): Route {
  const rest = pathname.startsWith(`${BASE}/`) ? pathname.slice(BASE.length + 1) : null;
  if (rest === null) return { name: 'not-found' };
  const parts = rest
    .split('/')
    .filter(Boolean)
    .map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        return p;
      }
    });
  if (parts[0] === 'manage') return parts.length === 2 ? { name: 'manage', token: parts[1]! } : { name: 'not-found' };
  const [workspaceId, therapistId, serviceId] = parts;
  if (parts.length === 1) return { name: 'workspace', workspaceId: workspaceId! };
  if (parts.length === 2) return { name: 'therapist', workspaceId: workspaceId!, therapistId: therapistId! };
  if (parts.length === 3) return { name: 'service', workspaceId: workspaceId!, therapistId: therapistId!, serviceId: serviceId! };
  return { name: 'not-found' };
}

/** The pathname of a page: `hrefOf(ws)`, `hrefOf(ws, therapist)`, `hrefOf(ws, therapist, service)`. */
export function hrefOf(...ids: string[]): string {
  return [BASE, ...ids.map(encodeURIComponent)].join('/');
}
