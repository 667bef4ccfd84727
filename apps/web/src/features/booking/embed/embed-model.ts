import { EMBED_ORIGINS_MAX, embedOriginSchema } from '@divan/core';

/** What a snippet opens: the workspace's index of therapists, or one service's page. */
export type EmbedTarget = { kind: 'index' } | { kind: 'service'; therapistId: string; serviceId: string };
export type EmbedMode = 'iframe' | 'button';

/** The public booking page of a target, on Diván's origin (`/v1/reservations/{workspaceId}[/…]`, spec §2). */
export function bookingPageUrl(divanOrigin: string, workspaceId: string, target: EmbedTarget): string {
  const base = `${divanOrigin}/v1/reservations/${workspaceId}`;
  return target.kind === 'index' ? base : `${base}/${target.therapistId}/${target.serviceId}`;
}

const attr = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The HTML a therapist pastes on their website: a container that `embed.js` fills with the page (it
 * grows with its content), or with a button opening it over the site. Without the script (a site that
 * allows no scripts), the iframe mode's container still holds a plain iframe of fixed height.
 */
export function embedSnippet(divanOrigin: string, pageUrl: string, mode: EmbedMode, label = 'Reservar cita'): string {
  const script = `<script src="${attr(divanOrigin)}/embed.js" async></script>`;
  if (mode === 'button')
    return `<div data-divan-booking="${attr(pageUrl)}" data-mode="button" data-label="${attr(label)}"></div>\n${script}`;
  return `<div data-divan-booking="${attr(pageUrl)}"></div>\n${script}`;
}

/** A plain iframe, for site builders that take no script (it does not grow with the page). */
export function plainIframe(pageUrl: string): string {
  return `<iframe src="${attr(pageUrl)}" title="Reserva online" style="width:100%;height:900px;border:0" loading="lazy"></iframe>`;
}

export type OriginCheck = { ok: true; origin: string } | { ok: false; message: string };

/** One origin typed by the therapist, checked with core's schema (the server's), against those already listed. */
export function checkOrigin(text: string, listed: readonly string[]): OriginCheck {
  const trimmed = text.trim();
  if (!trimmed) return { ok: false, message: 'Escribe el origen de tu web, como https://www.tuconsulta.es' };
  const parsed = embedOriginSchema.safeParse(trimmed);
  if (!parsed.success) return { ok: false, message: parsed.error.issues[0]?.message ?? 'Origen no válido' };
  if (listed.includes(parsed.data)) return { ok: false, message: 'Esa web ya está en la lista' };
  if (listed.length >= EMBED_ORIGINS_MAX) return { ok: false, message: `Puedes añadir hasta ${EMBED_ORIGINS_MAX} webs` };
  return { ok: true, origin: parsed.data };
}

/** Whether two lists hold the same origins in the same order (the form is unchanged). */
export const sameOrigins = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((o, i) => o === b[i]);
