import { renderMail, type Mail, type MailBrand } from '../../platform/mail/layout';

/** Sent in the workspace's name, with its logo: the invitee knows who invites them. */
export function invitationMail(to: string, inviter: string, brand: MailBrand, url: string): Mail {
  return renderMail({
    to,
    subject: `${inviter} te invita a ${brand.name} en Diván`,
    greeting: 'Hola:',
    brand,
    blocks: [
      { kind: 'p', text: `${inviter} te invita a unirte al espacio de trabajo «${brand.name}» en Diván.` },
      { kind: 'button', url, label: 'Ver invitación' },
      { kind: 'note', text: 'Si aún no tienes cuenta, créala con este mismo email.' },
    ],
  });
}
