import { renderMail, type Mail } from '../../platform/mail/layout';

/** The auth mails, in Spanish, in the one mail layout. */
const notYou = 'Si no has sido tú, ignora este mensaje.';

export function confirmEmailMail(to: string, firstName: string, url: string): Mail {
  return renderMail({
    to,
    subject: 'Confirma tu cuenta de Diván',
    greeting: `Hola, ${firstName}:`,
    blocks: [
      { kind: 'p', text: 'Gracias por registrarte en Diván. Confirma tu email con este enlace (caduca en 24 horas):' },
      { kind: 'button', url, label: 'Confirmar mi cuenta' },
    ],
    footer: notYou,
  });
}

/** `linking`: the code proves this account to link a provider's identity to it (social sign-in with the same email). */
export function loginCodeMail(to: string, firstName: string, code: string, linking?: { provider: string }): Mail {
  return renderMail({
    to,
    // No code in the subject: subjects are kept (and shown in notifications) after the body is dropped.
    subject: 'Tu código de acceso a Diván',
    greeting: `Hola, ${firstName}:`,
    blocks: [
      linking
        ? { kind: 'p', text: `Para vincular tu cuenta de ${linking.provider} a Diván e iniciar sesión, escribe este código:` }
        : { kind: 'p', text: 'Tu código para iniciar sesión es:' },
      { kind: 'code', code },
      { kind: 'p', text: 'Caduca en 10 minutos.' },
    ],
    footer: 'Si no has sido tú, cambia tu contraseña.',
  });
}

/** Step-up of an account without an authenticator app (issue 32): the mailed code confirms a sensitive action. */
export function stepUpCodeMail(to: string, firstName: string, code: string): Mail {
  return renderMail({
    to,
    subject: 'Confirma que eres tú en Diván',
    greeting: `Hola, ${firstName}:`,
    blocks: [
      { kind: 'p', text: 'Para confirmar una acción protegida (como exportar datos de pacientes), escribe este código:' },
      { kind: 'code', code },
      { kind: 'p', text: 'Caduca en 10 minutos.' },
    ],
    footer: 'Si no has sido tú, cambia tu contraseña.',
  });
}

export function resetPasswordMail(to: string, firstName: string, url: string): Mail {
  return renderMail({
    to,
    subject: 'Restablece tu contraseña de Diván',
    greeting: `Hola, ${firstName}:`,
    blocks: [
      { kind: 'p', text: 'Para elegir una contraseña nueva abre este enlace (caduca en 1 hora):' },
      { kind: 'button', url, label: 'Elegir contraseña' },
    ],
    footer: 'Si no lo has pedido tú, ignora este mensaje.',
  });
}
