import type { Mail } from '../../platform/mail/mailer';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function invitationMail(to: string, inviter: string, workspace: string, url: string): Mail {
  return {
    to,
    subject: `${inviter} te invita a ${workspace} en Diván`,
    text: `Hola:\n\n${inviter} te invita a unirte al espacio de trabajo «${workspace}» en Diván.\n\nAcepta la invitación aquí (si aún no tienes cuenta, créala con este mismo email):\n${url}\n`,
    html: `<div style="font-family:system-ui,sans-serif;max-width:520px;margin:auto;color:#1f2a2a"><h2 style="color:#2f6f68">Diván</h2><p>${esc(inviter)} te invita a unirte al espacio de trabajo <strong>${esc(workspace)}</strong>.</p><p><a href="${url}" style="display:inline-block;background:#2f6f68;color:#fff;padding:10px 18px;border-radius:8px;text-decoration:none">Ver invitación</a></p><p style="font-size:13px">Si aún no tienes cuenta, créala con este mismo email. Enlace: ${url}</p></div>`,
  };
}
