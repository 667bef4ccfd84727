/** The pages only a signed-out visitor sees, drawn by guest-app.tsx without the router (main.tsx picks it). */
export const GUEST_PATHS = ['/sign-in', '/sign-up', '/forgot-password'] as const;
export type GuestPath = (typeof GUEST_PATHS)[number];

/** `/sign-in` and `/sign-in/` alike. */
export function guestPath(pathname: string): GuestPath | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return (GUEST_PATHS as readonly string[]).includes(path) ? (path as GuestPath) : null;
}
