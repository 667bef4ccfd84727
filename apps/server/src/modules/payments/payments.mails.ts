import { formatCents } from '@divan/core';
import { renderMail, type Mail, type MailBrand } from '../../platform/mail/layout';

const notYou = 'Si no esperabas este mensaje, ignóralo o escribe a tu terapeuta.';

/** The patient is asked to save a card for the payments of their sessions. */
export function cardLinkMail(to: string, firstName: string, seller: string, url: string, brand: MailBrand): Mail {
  return renderMail({
    to,
    brand,
    subject: `${seller} te pide una tarjeta para el pago de tus sesiones`,
    greeting: `Hola, ${firstName}:`,
    blocks: [
      {
        kind: 'p',
        text: `${seller} usa Diván para cobrar sus sesiones. Puedes guardar tu tarjeta de forma segura en Stripe con este enlace: así se cobrará cada factura cuando se emita, sin que tengas que hacer nada.`,
      },
      { kind: 'button', url, label: 'Guardar mi tarjeta' },
      { kind: 'note', text: 'Los datos de tu tarjeta los guarda Stripe: ni Diván ni tu terapeuta los ven. El enlace caduca en 7 días.' },
    ],
    footer: notYou,
  });
}

/** The buyer is asked to pay an invoice by card. */
export function payLinkMail(
  to: string,
  firstName: string,
  seller: string,
  invoice: { number: string; totalCents: number },
  url: string,
  brand: MailBrand,
  why?: string,
): Mail {
  return renderMail({
    to,
    brand,
    subject: `Factura ${invoice.number} de ${seller}: ${formatCents(invoice.totalCents)}`,
    greeting: `Hola, ${firstName}:`,
    blocks: [
      ...(why ? [{ kind: 'p' as const, text: why }] : []),
      {
        kind: 'p',
        text: `Tienes pendiente de pago la factura ${invoice.number} de ${seller}, de ${formatCents(invoice.totalCents)}. Puedes pagarla con tarjeta en este enlace:`,
      },
      { kind: 'button', url, label: 'Pagar la factura' },
      { kind: 'note', text: 'El pago lo procesa Stripe de forma segura. El enlace caduca en 30 días.' },
    ],
    footer: notYou,
  });
}

/** The therapist learns an automatic charge did not go through. */
export function chargeFailedMail(
  to: string,
  firstName: string,
  invoice: { number: string; totalCents: number; patientName: string },
  why: string,
  url: string,
): Mail {
  return renderMail({
    to,
    subject: `No se pudo cobrar la factura ${invoice.number}`,
    greeting: `Hola, ${firstName}:`,
    blocks: [
      {
        kind: 'p',
        text: `El cobro automático de la factura ${invoice.number} (${invoice.patientName}, ${formatCents(invoice.totalCents)}) no se ha completado: ${why}`,
      },
      { kind: 'button', url, label: 'Ver la factura' },
    ],
  });
}
