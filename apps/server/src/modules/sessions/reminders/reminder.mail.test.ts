// The reminder mail: the session's own zone whatever the server's, the video link for online sessions.
import { expect, it } from 'vitest';
import { underEveryServerZone } from '../../../../../../packages/core/src/time/testing/server-zones';
import { toInstant } from '@divan/core';
import { reminderMail } from './reminder.mail';

const base = {
  to: 'lola@correo.test',
  patientFirstName: 'Lola',
  therapistName: 'Tere Gómez',
  brand: { name: 'Clínica Sol', logoUrl: 'https://divan.test/files/public/logo.png' },
  place: null,
  videoLink: null,
};

underEveryServerZone(() => {
  it('reads day and time in the session’s zone (Madrid across the October clock change; Canarias named)', () => {
    const m = reminderMail({
      ...base,
      startsAt: toInstant('2026-10-26', '18:00', 'Europe/Madrid'),
      endsAt: toInstant('2026-10-26', '18:50', 'Europe/Madrid'),
      timeZone: 'Europe/Madrid',
      modality: 'presential',
      place: { name: 'Sala 2', address: 'Calle Mayor 1, Madrid' },
    });
    expect(m.subject).toBe('Recordatorio: sesión el lunes 26/10/2026 a las 18:00');
    expect(m.text).toContain('Te recordamos tu sesión con Tere Gómez el lunes 26/10/2026 a las 18:00, hasta las 18:50.');
    expect(m.text).toContain('Lugar: Sala 2, Calle Mayor 1, Madrid.');
    expect(m.html).toContain('src="https://divan.test/files/public/logo.png"');
    expect(m.html).toContain('Clínica Sol');
    const canarias = reminderMail({
      ...base,
      startsAt: toInstant('2027-03-29', '09:30', 'Atlantic/Canary'),
      endsAt: toInstant('2027-03-29', '10:15', 'Atlantic/Canary'),
      timeZone: 'Atlantic/Canary',
      modality: 'presential',
    });
    expect(canarias.text).toContain('el lunes 29/03/2027 a las 09:30 (hora de Canarias), hasta las 10:15.');
  });
});

it('gives an online session its video link and no place', () => {
  const m = reminderMail({
    ...base,
    startsAt: new Date('2026-12-01T17:00:00Z'),
    endsAt: new Date('2026-12-01T17:50:00Z'),
    timeZone: 'Europe/Madrid',
    modality: 'online',
    place: { name: 'Sala 2', address: null },
    videoLink: 'https://divan.test/meet/abc?t=xyz',
  });
  expect(m.text).toContain('Modalidad: Online (videollamada).');
  expect(m.text).toContain('Entrar a la videollamada: https://divan.test/meet/abc?t=xyz');
  expect(m.text).not.toContain('Lugar');
  expect(m.html).toContain('href="https://divan.test/meet/abc?t=xyz"');
});
