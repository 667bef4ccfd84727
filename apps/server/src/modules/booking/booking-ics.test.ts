import { describe, expect, it } from 'vitest';
import { addressOf, bookingInvite } from './booking-ics';
import { emailHint } from './booking-mails';

const base = {
  sessionId: '7d0c5c2e-4a43-4d1e-9d3f-0f4d2a9b6c11',
  sequence: 0,
  // 29/03/2026 is the spring change in Madrid: 10:00 local is 08:00 UTC (CEST).
  startsAt: new Date('2026-03-29T08:00:00Z'),
  endsAt: new Date('2026-03-29T08:50:00Z'),
  timeZone: 'Europe/Madrid',
  summary: 'Primera consulta con Olga',
  description: 'Reserva hecha en Consulta Olga.',
  location: 'Consulta, Calle Mayor 1, Madrid',
  organizer: { name: 'Consulta Olga', email: addressOf('Diván <no-reply@divan.test>') },
  attendee: { name: 'Lola Martín', email: 'lola@correo.test' },
  now: new Date('2026-03-20T10:00:00Z'),
};

describe('the booking invitation (.ics)', () => {
  it("is a REQUEST for one event in the therapist's zone, with its VTIMEZONE, the patient as attendee, a stable UID", async () => {
    // Unfolded: long lines are folded at 75 octets.
    const ics = (await bookingInvite(base)).replace(/\r\n[ \t]/g, '');
    expect(ics).toContain('METHOD:REQUEST');
    expect(ics).toContain('UID:booking-7d0c5c2e-4a43-4d1e-9d3f-0f4d2a9b6c11@divan');
    expect(ics).toContain('SEQUENCE:0');
    expect(ics).toContain('DTSTART;TZID=Europe/Madrid:20260329T100000');
    expect(ics).toContain('DTEND;TZID=Europe/Madrid:20260329T105000');
    expect(ics).toMatch(/BEGIN:VTIMEZONE\r\nTZID:Europe\/Madrid/);
    expect(ics).toContain('ORGANIZER;CN="Consulta Olga":mailto:no-reply@divan.test');
    expect(ics).toMatch(/ATTENDEE;[^\r\n]*CN="Lola Martín"[^\r\n]*:MAILTO:lola@correo\.test/i);
    expect(ics).toContain('STATUS:CONFIRMED');
    expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(1);
  });

  it('a move keeps the UID and raises the SEQUENCE; the times follow', async () => {
    const moved = await bookingInvite({
      ...base,
      sequence: 1,
      startsAt: new Date('2026-03-30T07:00:00Z'),
      endsAt: new Date('2026-03-30T07:50:00Z'),
    });
    expect(moved).toContain('UID:booking-7d0c5c2e-4a43-4d1e-9d3f-0f4d2a9b6c11@divan');
    expect(moved).toContain('SEQUENCE:1');
    expect(moved).toContain('DTSTART;TZID=Europe/Madrid:20260330T090000');
  });

  it('hides the address where the code went', () => {
    expect(emailHint('lola@gmail.com')).toBe('l•••@gmail.com');
    expect(emailHint('x')).toBe('•••');
  });
});
