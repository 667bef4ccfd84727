import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { BOOKING_CODE_ATTEMPTS_MAX, type BookingHold, type BookingService, type PublicSlots } from '@divan/core';
import type { OutboxMail } from '../../platform/mail/mailer';
import type { MailAttachment } from '../../platform/mail/layout';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { at, bookingKit, type Kit } from './booking-flow.testkit';

// Saturday 28/11/2026, 11:00 in Madrid. The service's minimum notice is 24 hours, its maximum 2 months.
let now = new Date('2026-11-28T10:00:00Z');
let t: TestApp;
let k: Kit;
let service: BookingService;
const events: string[] = [];

const refused = (res: { statusCode: number; body: string }, status: number, code: string) => {
  expect(res.statusCode, res.body).toBe(status);
  expect(json<{ code: string }>(res as never).code).toBe(code);
};
const icsOf = (mail: OutboxMail) =>
  Buffer.from((mail as OutboxMail & { attachments: MailAttachment[] }).attachments[0]!.content, 'base64').toString('utf8');
const patientsWith = (email: string) =>
  t.rows<{ id: string; treatment_referral_source: string | null; assigned_therapist_id: string; phone: string; first_name: string }>(
    sql`select * from patients where email = ${email}`,
  );
const sessionsOf = (patientId: string) =>
  t.rows<{ id: string; status: string; price: number; modality: string; public_service_id: string; starts_at: Date }>(
    sql`select * from sessions where patient_id = ${patientId} order by starts_at`,
  );
const slotTimes = async (month: string, day: string) => {
  const res = await t.get(`/api/v1/public/reservations/${k.ws.id}/${k.owner.userId}/${service.id}/slots?month=${month}`);
  return (
    json<PublicSlots>(res)
      .days.find((d) => d.day === day)
      ?.slots.map((s) => s.therapist.from) ?? []
  );
};

beforeAll(async () => {
  t = await createTestApp({}, { clock: () => now });
  k = await bookingKit(t, 'reservas');
  service = await k.createService();
  t.app.services.events.on('session.created', (p) => void events.push(`created:${p.sessionId}`), { scope: 'once' });
}, 60_000);
afterAll(() => t?.close());

describe('booking on the public page', () => {
  it('its routes are public (no account), each rate limited', () => {
    const mine = t.app.declaredRoutes().filter((r) => /\/public\/(booking-holds|bookings)\/|\/holds$/.test(r.url) && r.method !== 'HEAD');
    expect(mine.map((r) => `${r.method} ${r.url}`).sort()).toEqual([
      'GET /api/v1/public/bookings/:token',
      'POST /api/v1/public/booking-holds/:holdId/confirm',
      'POST /api/v1/public/bookings/:token/cancel',
      'POST /api/v1/public/bookings/:token/move',
      'POST /api/v1/public/reservations/:workspaceId/:therapistId/:serviceId/holds',
    ]);
    expect(new Set(mine.map((r) => r.access))).toEqual(new Set(['public']));
  });

  it('holds the slot and mails a code; the code books it: a new patient file, the pending session, the confirmation with its .ics, the therapist told', async () => {
    const held = await k.hold(service, at('2026-11-30', '09:00'), 'lola@correo.test');
    expect(held.statusCode, held.body).toBe(201);
    const hold = json<BookingHold>(held);
    expect(hold.emailHint).toBe('l•••@correo.test');
    expect(hold.expiresAt).toBe('2026-11-28T10:10:00.000Z');
    // Held: the public month no longer offers it.
    expect(await slotTimes('2026-11', '2026-11-30')).toEqual(['10:00', '11:00', '12:00', '13:00']);
    const codeMail = await t.lastMail('lola@correo.test');
    expect(codeMail.text).toContain('Primera consulta» con Olga el lunes 30/11/2026 a las 09:00');

    const code = await k.codeFor('lola@correo.test');
    refused(await k.confirm(hold.holdId, code === '000000' ? '111111' : '000000'), 400, 'invalid_code');
    const res = await k.confirm(hold.holdId, code);
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res)).toMatchObject({
      status: 'booked',
      booking: {
        status: 'confirmed',
        startsAt: '2026-11-30T08:00:00.000Z',
        endsAt: '2026-11-30T08:50:00.000Z',
        timeZone: 'Europe/Madrid',
        therapist: { id: k.owner.userId, name: 'Olga' },
        service: { id: service.id, title: 'Primera consulta' },
        modality: 'online',
        changeableUntil: '2026-11-29T08:00:00.000Z',
      },
    });
    const [patient, ...others] = await patientsWith('lola@correo.test');
    expect(others).toEqual([]);
    expect(patient).toMatchObject({
      first_name: 'Lola',
      treatment_referral_source: 'website',
      assigned_therapist_id: k.owner.userId,
      phone: '+34612345678',
    });
    const [session] = await sessionsOf(patient!.id);
    expect(session).toMatchObject({ status: 'pending', price: 6000, modality: 'online', public_service_id: service.id });
    expect(events).toContain(`created:${session!.id}`);

    const mail = await t.lastMail('lola@correo.test');
    expect(mail.subject).toBe('Reserva confirmada: el lunes 30/11/2026 a las 09:00');
    expect(mail.text).toMatch(/http:\/\/divan\.test\/v1\/reservations\/manage\/[A-Za-z0-9_-]{43}/);
    const ics = icsOf(mail);
    expect(ics).toContain('METHOD:REQUEST');
    expect(ics).toContain(`UID:booking-${session!.id}@divan`);
    expect(ics).toContain('SEQUENCE:0');
    expect(ics).toContain('DTSTART;TZID=Europe/Madrid:20261130T090000');
    expect(ics).toContain('DTEND;TZID=Europe/Madrid:20261130T095000');
    expect(ics).toContain('BEGIN:VTIMEZONE');
    const told = await t.lastMail(k.owner.email);
    expect(told.subject).toBe('Nueva reserva: Lola Martín, el lunes 30/11/2026 a las 09:00');
    expect(told.text).toContain('hemos creado su ficha de paciente');

    // Used: the code books nothing more.
    refused(await k.confirm(hold.holdId, '123456'), 404, 'challenge_not_found');
  });

  it('recognises an existing patient by email only after the code: the same answer before it, no second file', async () => {
    const mine = await t.post(
      `/api/v1/workspaces/${k.ws.id}/patients`,
      { firstName: 'Ana', lastName: 'Ruiz', email: 'Ana@Correo.test' },
      { token: k.owner.accessToken },
    );
    expect(mine.statusCode, mine.body).toBe(201);
    const known = await k.hold(service, at('2026-12-02', '09:00'), 'ana@correo.test');
    const stranger = await k.hold(service, at('2026-12-02', '10:00'), 'nadie@correo.test');
    expect([known.statusCode, stranger.statusCode]).toEqual([201, 201]);
    const shape = (h: BookingHold) => ({ ...h, holdId: typeof h.holdId, emailHint: h.emailHint.replace(/^.•••@/, '') });
    expect(shape(json<BookingHold>(known))).toEqual(shape(json<BookingHold>(stranger)));

    const res = await k.confirm(json<BookingHold>(known).holdId, await k.codeFor('ana@correo.test'));
    expect(res.statusCode, res.body).toBe(200);
    const files = await t.rows<{ id: string }>(sql`select id from patients where lower(email) = 'ana@correo.test'`);
    expect(files.map((p) => p.id)).toEqual([json<{ id: string }>(mine).id]);
    expect((await sessionsOf(files[0]!.id)).map((s) => s.public_service_id)).toEqual([service.id]);
    expect((await t.lastMail(k.owner.email)).text).not.toContain('hemos creado su ficha');
  });

  it('the honeypot answers like a hold and does nothing', async () => {
    const res = await k.hold(service, at('2026-12-02', '11:00'), 'robot@correo.test', { website: 'https://spam.example' });
    expect(res.statusCode, res.body).toBe(201);
    expect(json<BookingHold>(res)).toMatchObject({ emailHint: 'r•••@correo.test' });
    await expect(t.lastMail('robot@correo.test')).rejects.toThrow();
    expect(await slotTimes('2026-12', '2026-12-02')).toContain('11:00');
    refused(await k.confirm(json<BookingHold>(res).holdId, '123456'), 404, 'challenge_not_found');
  });

  it('needs name, email and phone: one answer for any missing; a phone that is no phone is its field', async () => {
    refused(
      await k.hold(service, at('2026-12-02', '11:00'), 'sin@correo.test', { phone: '  ' }),
      400,
      'public_service_patient_data_missing',
    );
    refused(
      await k.hold(service, at('2026-12-02', '11:00'), 'sin@correo.test', { firstName: '' }),
      400,
      'public_service_patient_data_missing',
    );
    refused(await k.hold(service, at('2026-12-02', '11:00'), ''), 400, 'public_service_patient_data_missing');
    refused(await k.hold(service, at('2026-12-02', '11:00'), 'sin@correo.test', { phone: 'llámame' }), 400, 'invalid_argument');
    refused(await k.hold(service, at('2026-12-02', '11:00'), 'sin@correo.test', { privacyAccepted: false }), 400, 'invalid_argument');
  });

  it("a visitor's name is letters only (spec §5): markup never becomes a patient's name", async () => {
    for (const name of [{ firstName: '<img src=x onerror=alert(1)>' }, { lastName: 'Ruiz 2' }]) {
      const res = await k.hold(service, at('2026-12-02', '11:00'), 'marcado@correo.test', name);
      refused(res, 400, 'invalid_argument');
      expect(json<{ message: string }>(res).message).toBe('Solo se permiten letras');
    }
    await expect(t.lastMail('marcado@correo.test')).rejects.toThrow();
    const ok = await k.hold(service, at('2026-12-02', '11:00'), 'letras@correo.test', {
      firstName: 'María-José',
      lastName: "O'Connor Gal·la",
    });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('a slot is held once; a time off the grid or taken is refused; an expired hold frees it and cannot be confirmed', async () => {
    const first = await k.hold(service, at('2026-12-07', '09:00'), 'uno@correo.test');
    expect(first.statusCode, first.body).toBe(201);
    refused(await k.hold(service, at('2026-12-07', '09:00'), 'dos@correo.test'), 409, 'public_service_slot_not_available');
    refused(await k.hold(service, at('2026-12-07', '09:30'), 'dos@correo.test'), 409, 'public_service_slot_not_available');
    refused(await k.hold(service, at('2026-11-30', '09:00'), 'dos@correo.test'), 409, 'public_service_slot_not_available');
    const code = await k.codeFor('uno@correo.test');
    now = new Date(now.getTime() + 11 * 60_000);
    try {
      refused(await k.confirm(json<BookingHold>(first).holdId, code), 410, 'challenge_expired');
      const again = await k.hold(service, at('2026-12-07', '09:00'), 'dos@correo.test');
      expect(again.statusCode, again.body).toBe(201);
    } finally {
      now = new Date(now.getTime() - 11 * 60_000);
    }
  });

  it(`${BOOKING_CODE_ATTEMPTS_MAX} wrong codes, then the hold is given up and its slot free`, async () => {
    const res = await k.hold(service, at('2026-12-07', '10:00'), 'torpe@correo.test');
    const { holdId } = json<BookingHold>(res);
    const wrong = (await k.codeFor('torpe@correo.test')) === '999999' ? '999998' : '999999';
    for (let i = 0; i < BOOKING_CODE_ATTEMPTS_MAX; i++) refused(await k.confirm(holdId, wrong), 400, 'invalid_code');
    refused(await k.confirm(holdId, await k.codeFor('torpe@correo.test')), 429, 'max_attempts');
    expect(await slotTimes('2026-12', '2026-12-07')).toContain('10:00');
  });

  it('at most 5 holds per email an hour', async () => {
    for (const time of ['11:00', '12:00', '13:00'])
      expect((await k.hold(service, at('2026-12-07', time), 'prisa@correo.test')).statusCode).toBe(201);
    for (const time of ['09:00', '10:00'])
      expect((await k.hold(service, at('2026-12-09', time), 'prisa@correo.test')).statusCode).toBe(201);
    refused(await k.hold(service, at('2026-12-09', '11:00'), 'prisa@correo.test'), 429, 'too_many_requests');
  });

  it('the per-email limit holds when the holds come at once (the email is locked, then counted)', async () => {
    const times = [
      ...['09:00', '10:00', '11:00', '12:00', '13:00'].map((h) => at('2027-01-04', h)),
      ...['09:00', '10:00', '11:00'].map((h) => at('2027-01-06', h)),
    ];
    const answers = await Promise.all(times.map((time) => k.hold(service, time, 'carrera@correo.test')));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
  });

  it('a service for its patients only refuses a new email at the confirmation, and books a known one', async () => {
    const closed = await k.createService({ title: 'Seguimiento', allowNewPatients: false, bookingLimitPerPatient: 1 });
    const res = await k.hold(closed, at('2026-12-14', '09:00'), 'nueva@correo.test');
    expect(res.statusCode, res.body).toBe(201);
    refused(
      await k.confirm(json<BookingHold>(res).holdId, await k.codeFor('nueva@correo.test')),
      403,
      'public_service_not_accepting_new_patients',
    );
    expect(await patientsWith('nueva@correo.test')).toEqual([]);
    // The refused hold freed its slot: Ana, a patient, books it.
    await k.book(closed, at('2026-12-14', '09:00'), 'ana@correo.test');
    // Her limit there is one upcoming booking.
    const more = await k.hold(closed, at('2026-12-14', '10:00'), 'ana@correo.test');
    refused(
      await k.confirm(json<BookingHold>(more).holdId, await k.codeFor('ana@correo.test')),
      409,
      'public_service_patient_session_limit_reached',
    );
  });
});

describe('the manage link', () => {
  it('reads, moves (a new .ics, SEQUENCE 1) and cancels the booking; a taken slot and an unknown link are refused', async () => {
    const { token } = await k.book(service, at('2026-12-16', '09:00'), 'mover@correo.test');
    const B = `/api/v1/public/bookings/${token}`;
    expect(json(await t.get(B))).toMatchObject({
      booking: { status: 'confirmed', startsAt: '2026-12-16T08:00:00.000Z', changeableUntil: '2026-12-15T08:00:00.000Z' },
    });
    refused(await t.get(`/api/v1/public/bookings/${'x'.repeat(43)}`), 404, 'public_booking_not_found');

    await k.book(service, at('2026-12-16', '11:00'), 'otra@correo.test');
    refused(await t.post(`${B}/move`, { startsAt: at('2026-12-16', '11:00') }), 409, 'public_service_slot_not_available');
    // The next slot: its own session's gap does not block it.
    const moved = await t.post(`${B}/move`, { startsAt: at('2026-12-16', '10:00') });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(json(moved)).toMatchObject({ booking: { startsAt: '2026-12-16T09:00:00.000Z' } });
    const mail = await t.lastMail('mover@correo.test');
    expect(mail.subject).toBe('Reserva cambiada: el miércoles 16/12/2026 a las 10:00');
    const ics = icsOf(mail);
    expect(ics).toContain('SEQUENCE:1');
    expect(ics).toContain('DTSTART;TZID=Europe/Madrid:20261216T100000');
    expect((await t.lastMail(k.owner.email)).subject).toContain('Reserva cambiada');
    expect(await slotTimes('2026-12', '2026-12-16')).toEqual(['09:00', '12:00', '13:00']);

    const canceled = await t.post(`${B}/cancel`);
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(json(canceled)).toMatchObject({ booking: { status: 'canceled', changeableUntil: null } });
    expect((await t.lastMail(k.owner.email)).subject).toBe('Reserva cancelada: Lola Martín, el miércoles 16/12/2026 a las 10:00');
    // The patient's confirmation takes it off their calendar: the same event, cancelled, above the move's sequence.
    const told = await t.lastMail('mover@correo.test');
    expect(told.subject).toBe('Reserva cancelada: el miércoles 16/12/2026 a las 10:00');
    expect(told.text).toContain('Has cancelado tu sesión');
    expect(told.text).not.toContain('devolveremos');
    const cancelIcs = icsOf(told);
    expect(cancelIcs).toContain('METHOD:CANCEL');
    expect(cancelIcs).toContain('STATUS:CANCELLED');
    expect(cancelIcs).toContain('SEQUENCE:2');
    refused(await t.post(`${B}/cancel`), 409, 'public_booking_change_closed');
    expect(await slotTimes('2026-12', '2026-12-16')).toContain('10:00');
  });

  it('tells the therapist only what their settings «Avisos para ti» ask for', async () => {
    const settings = `/api/v1/workspaces/${k.ws.id}/notification-settings`;
    const toTherapist = async () => (await t.app.services.mailer.list(k.owner.email, 100)).length;
    const save = async (booked: boolean, canceled: boolean) => {
      const res = await t.put(
        settings,
        { reminderOffsets: [1440], notifyPatientBooked: booked, notifyPatientCanceled: canceled },
        { token: k.owner.accessToken },
      );
      expect(res.statusCode, res.body).toBe(200);
    };
    try {
      await save(false, true);
      const before = await toTherapist();
      const { token } = await k.book(service, at('2026-12-28', '09:00'), 'sinaviso@correo.test');
      expect((await t.post(`/api/v1/public/bookings/${token}/move`, { startsAt: at('2026-12-28', '10:00') })).statusCode).toBe(200);
      expect(await toTherapist()).toBe(before);
      expect((await t.post(`/api/v1/public/bookings/${token}/cancel`)).statusCode).toBe(200);
      expect(await toTherapist()).toBe(before + 1);
      expect((await t.lastMail(k.owner.email)).subject).toContain('Reserva cancelada');

      await save(true, false);
      const again = await k.book(service, at('2026-12-28', '12:00'), 'sinaviso@correo.test');
      expect(await toTherapist()).toBe(before + 2);
      expect((await t.lastMail(k.owner.email)).subject).toContain('Nueva reserva');
      expect((await t.post(`/api/v1/public/bookings/${again.token}/cancel`)).statusCode).toBe(200);
      expect(await toTherapist()).toBe(before + 2);
      // The patient is mailed whatever the therapist chose.
      expect((await t.lastMail('sinaviso@correo.test')).subject).toContain('Reserva cancelada');
    } finally {
      await save(true, true);
    }
  });

  it('closes at the minimum notice before the session', async () => {
    const { token } = await k.book(service, at('2026-12-21', '09:00'), 'tarde@correo.test');
    const B = `/api/v1/public/bookings/${token}`;
    const saved = now;
    now = new Date('2026-12-20T08:00:00Z'); // exactly 24 hours before
    try {
      expect(json(await t.get(B))).toMatchObject({ booking: { status: 'confirmed', changeableUntil: null } });
      refused(await t.post(`${B}/move`, { startsAt: at('2026-12-21', '12:00') }), 409, 'public_booking_change_closed');
      refused(await t.post(`${B}/cancel`), 409, 'public_booking_change_closed');
      now = new Date('2026-12-20T07:59:00Z');
      expect((await t.post(`${B}/cancel`)).statusCode).toBe(200);
    } finally {
      now = saved;
    }
  });
});
