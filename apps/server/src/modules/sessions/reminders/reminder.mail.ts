import { MODALITY, formatDayEs, isoWeekday, toLocal, DEFAULT_TIME_ZONE, zoneName } from '@divan/core';
import { renderMail, type Mail, type MailBlock, type MailBrand } from '../../../platform/mail/layout';

const WEEKDAYS = ['lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo'];

export type ReminderMailInput = {
  to: string;
  patientFirstName: string;
  therapistName: string;
  brand: MailBrand;
  startsAt: Date;
  endsAt: Date;
  timeZone: string;
  modality: 'presential' | 'online';
  place: { name: string; address: string | null } | null;
  /** The patient's link to the video room of an online session. */
  videoLink: string | null;
};

/**
 * The patient's reminder of a session (Spanish): day DD/MM/YYYY and HH:mm in the session's zone, the
 * modality, the place or the video link, the therapist's name; sent in the workspace's name and logo.
 */
export function reminderMail(r: ReminderMailInput): Mail {
  const start = toLocal(r.startsAt, r.timeZone);
  const end = toLocal(r.endsAt, r.timeZone);
  const weekday = WEEKDAYS[isoWeekday(start.day) - 1]!;
  const when = `el ${weekday} ${formatDayEs(start.day)} a las ${start.time}`;
  const zone = r.timeZone === DEFAULT_TIME_ZONE ? '' : ` (hora de ${zoneName(r.timeZone)})`;
  const blocks: MailBlock[] = [
    { kind: 'p', text: `Te recordamos tu sesión con ${r.therapistName} ${when}${zone}, hasta las ${end.time}.` },
    { kind: 'p', text: `Modalidad: ${r.modality === 'online' ? `${MODALITY.labels.online} (videollamada)` : MODALITY.labels.presential}.` },
  ];
  if (r.modality === 'presential' && r.place)
    blocks.push({ kind: 'p', text: `Lugar: ${[r.place.name, r.place.address].filter(Boolean).join(', ')}.` });
  if (r.modality === 'online' && r.videoLink) {
    blocks.push({ kind: 'button', url: r.videoLink, label: 'Entrar a la videollamada' });
    blocks.push({
      kind: 'note',
      text: 'El enlace es personal: no lo compartas. Abre la sala unos minutos antes para probar la cámara y el micrófono.',
    });
  }
  return renderMail({
    to: r.to,
    subject: `Recordatorio: sesión ${when}`,
    greeting: `Hola, ${r.patientFirstName}:`,
    brand: r.brand,
    blocks,
    footer: `Si no puedes asistir, avísale a ${r.therapistName} cuanto antes.`,
  });
}
