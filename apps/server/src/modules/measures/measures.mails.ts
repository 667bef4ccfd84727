import { MEASURE_LINK_DAYS, type Measure } from '@divan/core';
import { renderMail, type Mail, type MailBrand } from '../../platform/mail/layout';

/** The patient is asked to answer a measure (again, in the reminder). */
export function measureRequestMail(to: string, firstName: string, m: Measure, url: string, brand: MailBrand, reminder = false): Mail {
  return renderMail({
    to,
    brand,
    subject: `${reminder ? 'Recordatorio: ' : ''}${brand.name} te pide responder un cuestionario`,
    greeting: `Hola, ${firstName}:`,
    blocks: [
      {
        kind: 'p',
        text: `${brand.name} te pide responder el cuestionario «${m.shortName}» (${m.items.length} preguntas, unos minutos). Tus respuestas solo las verá tu terapeuta.`,
      },
      { kind: 'button', url, label: 'Responder el cuestionario' },
      { kind: 'note', text: `El enlace es personal: no lo compartas. Caduca a los ${MEASURE_LINK_DAYS} días y solo sirve una vez.` },
    ],
    footer: 'Si no esperabas este mensaje, ignóralo o escribe a tu terapeuta.',
  });
}

/**
 * A risk answer, to the therapist: no answer and no score in the mail (it leaves the encrypted
 * database), only that the file needs looking at.
 */
export function riskFlagMail(to: string, name: string, m: Measure, patientName: string, url: string, brand: MailBrand): Mail {
  return renderMail({
    to,
    brand,
    subject: `Aviso de riesgo en un cuestionario de ${patientName}`,
    greeting: `Hola, ${name}:`,
    blocks: [
      {
        kind: 'p',
        text: `Una respuesta del cuestionario «${m.shortName}» de ${patientName} indica posible riesgo. Revísala en su ficha y márcala como revisada.`,
      },
      { kind: 'button', url, label: 'Abrir la ficha' },
      { kind: 'note', text: 'Al paciente solo se le ha mostrado la línea de atención a la conducta suicida (024).' },
    ],
  });
}
