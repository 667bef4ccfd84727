import { CONSENT_LINK_DAYS } from '@divan/core';
import { renderMail, type Mail, type MailBrand } from '../../platform/mail/layout';

const notYou = 'Si no esperabas este mensaje, ignóralo o escribe a tu terapeuta.';
const PDF = 'application/pdf';

/** A signer is asked to sign (again, in a reminder). */
export function signRequestMail(
  to: string,
  name: string,
  doc: { title: string; patientName: string; forMinor: boolean },
  url: string,
  brand: MailBrand,
  reminder = false,
): Mail {
  const about = doc.forMinor ? `sobre la atención psicológica de ${doc.patientName}` : 'para tu atención psicológica';
  return renderMail({
    to,
    brand,
    subject: `${reminder ? 'Recordatorio: ' : ''}${brand.name} te pide firmar «${doc.title}»`,
    greeting: `Hola, ${name}:`,
    blocks: [
      {
        kind: 'p',
        text: `${brand.name} te envía un documento ${about}: «${doc.title}». Puedes leerlo y firmarlo desde el móvil o el ordenador, sin crear ninguna cuenta.`,
      },
      { kind: 'button', url, label: 'Leer y firmar' },
      {
        kind: 'note',
        text: `El enlace es personal: no lo compartas. Caduca a los ${CONSENT_LINK_DAYS} días de su envío y solo sirve para firmar una vez.`,
      },
    ],
    footer: notYou,
  });
}

/** The signed, sealed PDF, to each signer and the therapist. */
export function signedCopyMail(
  to: string,
  name: string,
  doc: { title: string; fileName: string; pdf: Buffer },
  brand: MailBrand,
  forTherapist: boolean,
): Mail {
  const mail = renderMail({
    to,
    brand,
    subject: `Documento firmado: «${doc.title}»`,
    greeting: `Hola, ${name}:`,
    blocks: [
      {
        kind: 'p',
        text: forTherapist
          ? `Todas las personas han firmado «${doc.title}». El PDF sellado, con el registro de evidencias, está en los documentos del paciente y adjunto a este mensaje.`
          : `Gracias: el documento «${doc.title}» está firmado por todas las personas que debían hacerlo. Te adjuntamos una copia en PDF para que la guardes.`,
      },
      {
        kind: 'note',
        text: 'El PDF lleva un sello electrónico: cualquier cambio posterior en el archivo se detecta al abrirlo con un lector de PDF.',
      },
    ],
    footer: forTherapist ? undefined : notYou,
  });
  return { ...mail, attachments: [{ filename: doc.fileName, contentType: PDF, content: doc.pdf.toString('base64'), encoding: 'base64' }] };
}
