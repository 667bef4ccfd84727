import { BOOKING_HOLD_MINUTES, DEFAULT_TIME_ZONE, MODALITY, formatCents, formatDayEs, isoWeekday, toLocal, zoneName } from '@divan/core';
import { renderMail, type Mail, type MailBlock, type MailBrand } from '../../platform/mail/layout';

const WEEKDAYS = ['lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo'];
const notYou = 'Si no has pedido esta reserva, ignora este mensaje: la hora se libera sola en unos minutos.';

/** "el lunes 30/11/2026 a las 10:00" in `timeZone`, with the zone named when it is not Madrid's. */
export function whenText(startsAt: Date, timeZone: string): string {
  const start = toLocal(startsAt, timeZone);
  const zone = timeZone === DEFAULT_TIME_ZONE ? '' : ` (hora de ${zoneName(timeZone)})`;
  return `el ${WEEKDAYS[isoWeekday(start.day) - 1]} ${formatDayEs(start.day)} a las ${start.time}${zone}`;
}

export type BookedFacts = {
  serviceTitle: string;
  therapistName: string;
  startsAt: Date;
  timeZone: string;
  modality: 'presential' | 'online';
  place: { name: string; address: string | null } | null;
};

const placeText = (f: BookedFacts) =>
  f.modality === 'online'
    ? `${MODALITY.labels.online} (videollamada): recibirás el enlace antes de la sesión.`
    : [f.place?.name, f.place?.address].filter(Boolean).join(', ') || MODALITY.labels.presential;

/** The six-digit code that proves the visitor's email before anything is booked. */
export function holdCodeMail(to: string, firstName: string, code: string, f: BookedFacts, visitorZone: string, brand: MailBrand): Mail {
  return renderMail({
    to,
    brand,
    subject: `${code} es tu código para reservar con ${f.therapistName}`,
    greeting: `Hola, ${firstName}:`,
    blocks: [
      {
        kind: 'p',
        text: `Para reservar «${f.serviceTitle}» con ${f.therapistName} ${whenText(f.startsAt, visitorZone)}, escribe este código en la página de reserva:`,
      },
      { kind: 'code', code },
      { kind: 'note', text: `Guardamos la hora para ti durante ${BOOKING_HOLD_MINUTES} minutos. El código es personal: no lo compartas.` },
    ],
    footer: notYou,
  });
}

/** The booking is made (or moved): the details, the manage link and the .ics invitation. */
export function bookingConfirmedMail(
  to: string,
  firstName: string,
  f: BookedFacts,
  manageUrl: string,
  ics: string,
  brand: MailBrand,
  moved = false,
): Mail {
  const blocks: MailBlock[] = [
    {
      kind: 'p',
      text: moved
        ? `Tu sesión «${f.serviceTitle}» con ${f.therapistName} ha cambiado de hora: ahora es ${whenText(f.startsAt, f.timeZone)}.`
        : `Tu sesión «${f.serviceTitle}» con ${f.therapistName} está reservada ${whenText(f.startsAt, f.timeZone)}.`,
    },
    { kind: 'p', text: `Dónde: ${placeText(f)}` },
    { kind: 'p', text: 'Te adjuntamos la invitación para que la añadas a tu calendario.' },
    { kind: 'button', url: manageUrl, label: 'Cambiar o cancelar la reserva' },
    {
      kind: 'note',
      text: 'El enlace es personal: no lo compartas. Con él puedes cambiar la hora o cancelar hasta la antelación mínima que pide el servicio.',
    },
  ];
  const mail = renderMail({
    to,
    brand,
    subject: `${moved ? 'Reserva cambiada' : 'Reserva confirmada'}: ${whenText(f.startsAt, f.timeZone)}`,
    greeting: `Hola, ${firstName}:`,
    blocks,
  });
  return {
    ...mail,
    attachments: [
      {
        filename: 'reserva.ics',
        contentType: 'text/calendar; charset=utf-8; method=REQUEST',
        content: Buffer.from(ics).toString('base64'),
        encoding: 'base64',
      },
    ],
  };
}

/** The patient cancelled their booking: the confirmation, the .ics that takes it off their calendar, and the refund when it was paid. */
export function bookingCanceledMail(
  to: string,
  firstName: string,
  f: BookedFacts,
  ics: string,
  brand: MailBrand,
  refundCents: number | null,
): Mail {
  const blocks: MailBlock[] = [
    {
      kind: 'p',
      text: `Has cancelado tu sesión «${f.serviceTitle}» con ${f.therapistName} ${whenText(f.startsAt, f.timeZone)}. La hora queda libre.`,
    },
    ...(refundCents
      ? [
          {
            kind: 'p' as const,
            text: `Te devolveremos los ${formatCents(refundCents)} que pagaste a la misma tarjeta; te avisaremos cuando esté hecho.`,
          },
        ]
      : []),
    { kind: 'p', text: 'Te adjuntamos la cancelación para que desaparezca de tu calendario.' },
    { kind: 'note', text: 'Si quieres volver, puedes reservar otra hora en la página de reservas.' },
  ];
  const mail = renderMail({
    to,
    brand,
    subject: `Reserva cancelada: ${whenText(f.startsAt, f.timeZone)}`,
    greeting: `Hola, ${firstName}:`,
    blocks,
  });
  return {
    ...mail,
    attachments: [
      {
        filename: 'cancelacion.ics',
        contentType: 'text/calendar; charset=utf-8; method=CANCEL',
        content: Buffer.from(ics).toString('base64'),
        encoding: 'base64',
      },
    ],
  };
}

export type TherapistNotice = {
  kind: 'booked' | 'canceled' | 'moved';
  patientName: string;
  newPatient?: boolean;
  from?: Date;
  message?: string | null;
};

/** The therapist hears of every booking, cancellation and move made from the public page. */
export function therapistNoticeMail(to: string, therapistFirstName: string, f: BookedFacts, n: TherapistNotice, appUrl: string): Mail {
  const when = whenText(f.startsAt, f.timeZone);
  const text = {
    booked: `${n.patientName} ha reservado «${f.serviceTitle}» ${when}.${n.newPatient ? ' Es una persona nueva: hemos creado su ficha de paciente, asignada a ti.' : ''}`,
    canceled: `${n.patientName} ha cancelado su sesión «${f.serviceTitle}» ${when}. La hora vuelve a estar libre para reservas.`,
    moved: `${n.patientName} ha cambiado su sesión «${f.serviceTitle}»${n.from ? ` de ${whenText(n.from, f.timeZone)}` : ''} a ${when}.`,
  }[n.kind];
  const subject = { booked: 'Nueva reserva', canceled: 'Reserva cancelada', moved: 'Reserva cambiada' }[n.kind];
  return renderMail({
    to,
    subject: `${subject}: ${n.patientName}, ${when}`,
    greeting: `Hola, ${therapistFirstName}:`,
    blocks: [
      { kind: 'p', text },
      ...(n.message ? [{ kind: 'note' as const, text: `Su mensaje: «${n.message}»` }] : []),
      { kind: 'button', url: appUrl, label: 'Abrir la agenda' },
    ],
  });
}

/** 'lola@gmail.com' → 'l•••@gmail.com': the visitor sees where the code went without the page showing the address. */
export function emailHint(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${email[0]}•••${email.slice(at)}`;
}

/** A booking paid (or with its card saved) that could not be made after all (the time was taken meanwhile). */
export function bookingNotMadeMail(to: string, firstName: string, f: BookedFacts, brand: MailBrand, refunded: boolean): Mail {
  return renderMail({
    to,
    brand,
    subject: `No hemos podido reservar tu sesión ${whenText(f.startsAt, f.timeZone)}`,
    greeting: `Hola, ${firstName}:`,
    blocks: [
      {
        kind: 'p',
        text: `Lo sentimos: cuando terminaste ${refunded ? 'el pago' : 'de guardar tu tarjeta'}, la hora que elegiste para «${f.serviceTitle}» con ${f.therapistName} ya no estaba disponible, así que no se ha hecho la reserva.`,
      },
      ...(refunded
        ? [{ kind: 'p' as const, text: 'Te devolvemos el importe a la misma tarjeta; según tu banco, puede tardar unos días en verse.' }]
        : []),
      { kind: 'note', text: 'Puedes volver a la página de reserva y elegir otra hora.' },
    ],
  });
}

/** The money of a booking paid at booking, given back after the patient cancelled it. */
export function bookingRefundedMail(to: string, firstName: string, f: BookedFacts, brand: MailBrand, amountCents: number): Mail {
  return renderMail({
    to,
    brand,
    subject: `Te hemos devuelto el pago de tu sesión cancelada (${formatCents(amountCents)})`,
    greeting: `Hola, ${firstName}:`,
    blocks: [
      {
        kind: 'p',
        text: `Cancelaste tu sesión «${f.serviceTitle}» con ${f.therapistName} ${whenText(f.startsAt, f.timeZone)}, que habías pagado al reservar.`,
      },
      {
        kind: 'p',
        text: `Te hemos devuelto ${formatCents(amountCents)} a la misma tarjeta; según tu banco, puede tardar unos días en verse.`,
      },
    ],
  });
}
