import type { Mail } from '../../platform/mail/mailer';

/** The auth mails, in Spanish, as plain text and simple HTML. */
const layout = (title: string, body: string) =>
  `<div style="font-family:system-ui,sans-serif;max-width:520px;margin:auto;color:#1f2a2a"><h2 style="color:#2f6f68">Diván</h2><h3>${title}</h3>${body}<p style="color:#6b7575;font-size:13px">Si no has sido tú, ignora este mensaje.</p></div>`;
const button = (url: string, label: string) =>
  `<p><a href="${url}" style="display:inline-block;background:#2f6f68;color:#fff;padding:10px 18px;border-radius:8px;text-decoration:none">${label}</a></p><p style="font-size:13px">O copia este enlace: ${url}</p>`;
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function confirmEmailMail(to: string, firstName: string, url: string): Mail {
  return {
    to,
    subject: 'Confirma tu cuenta de Diván',
    text: `Hola, ${firstName}:\n\nGracias por registrarte en Diván. Confirma tu email con este enlace (caduca en 24 horas):\n${url}\n\nSi no has sido tú, ignora este mensaje.`,
    html: layout(`Hola, ${esc(firstName)}`, `<p>Gracias por registrarte en Diván. Confirma tu email (el enlace caduca en 24 horas):</p>${button(url, 'Confirmar mi cuenta')}`),
  };
}

export function loginCodeMail(to: string, firstName: string, code: string): Mail {
  return {
    to,
    subject: `Tu código de acceso a Diván: ${code}`,
    text: `Hola, ${firstName}:\n\nTu código para iniciar sesión es ${code}. Caduca en 10 minutos.\n\nSi no has sido tú, cambia tu contraseña.`,
    html: layout(
      `Hola, ${esc(firstName)}`,
      `<p>Tu código para iniciar sesión es:</p><p style="font-size:32px;letter-spacing:8px;font-weight:bold">${code}</p><p>Caduca en 10 minutos.</p>`,
    ),
  };
}

export function resetPasswordMail(to: string, firstName: string, url: string): Mail {
  return {
    to,
    subject: 'Restablece tu contraseña de Diván',
    text: `Hola, ${firstName}:\n\nPara elegir una contraseña nueva abre este enlace (caduca en 1 hora):\n${url}\n\nSi no lo has pedido tú, ignora este mensaje.`,
    html: layout(`Hola, ${esc(firstName)}`, `<p>Para elegir una contraseña nueva abre este enlace (caduca en 1 hora):</p>${button(url, 'Elegir contraseña')}`),
  };
}
