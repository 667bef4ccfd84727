/**
 * A link between the sign-in and sign-up pages that keeps what the visitor came with: where to go
 * afterwards (`redirect`, e.g. an invitation to a workspace) and a colleague's invitation code (`ref`).
 */
export function authPath(path: '/sign-in' | '/sign-up', params: { redirect?: string | null; ref?: string | null }): string {
  const query = new URLSearchParams();
  if (params.redirect) query.set('redirect', params.redirect);
  if (params.ref) query.set('ref', params.ref);
  const qs = query.toString();
  return qs ? `${path}?${qs}` : path;
}
