import { renderMail, type Mail } from '../../platform/mail/layout';

/** The patient accounts' mails, in Spanish, in the one mail layout. */
export function patientLoginCodeMail(to: string, firstName: string, code: string): Mail {
  return renderMail({
    to,
    // No code in the subject: subjects are kept (and shown in notifications) after the body is dropped.
    subject: 'Tu código de acceso a Diván',
    greeting: `Hola, ${firstName}:`,
    blocks: [
      { kind: 'p', text: 'Tu código para entrar en tu espacio de paciente es:' },
      { kind: 'code', code },
      { kind: 'p', text: 'Caduca en 10 minutos.' },
    ],
    footer: 'Si no has sido tú, ignora este mensaje: sin el código nadie puede entrar.',
  });
}

export function connectInvitationMail(
  to: string,
  m: { firstName: string; therapistName: string | null; workspaceName: string; url: string },
): Mail {
  const who = m.therapistName ? `${m.therapistName} (${m.workspaceName})` : m.workspaceName;
  return renderMail({
    to,
    subject: `${m.workspaceName} te invita a conectar con Diván`,
    greeting: `Hola, ${m.firstName}:`,
    blocks: [
      {
        kind: 'p',
        text: `${who} te invita a conectar tu ficha de paciente con Diván: podrás ver tus sesiones, tus documentos y escribir a tu terapeuta.`,
      },
      { kind: 'button', url: m.url, label: 'Conectar' },
      { kind: 'p', text: 'Te pediremos un código que enviaremos a este email. El enlace caduca en 14 días.' },
    ],
    footer: 'Si no esperabas esta invitación, ignora este mensaje.',
  });
}
