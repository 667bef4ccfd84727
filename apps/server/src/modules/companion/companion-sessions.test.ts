import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { BookingService, CompanionSession, CompanionSessions, PublicSlots } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { records } from '../../test/workspace-records';
import { at, bookingKit, type Kit } from '../booking/booking-flow.testkit';
import { connectedPatient, expectError, type PatientSession } from '../patient-accounts/patient-accounts.testkit';

// Saturday 28/11/2026, 11:00 in Madrid; the service's minimum notice is 24 hours.
let now = new Date('2026-11-28T10:00:00Z');
let t: TestApp;
let k: Kit;
let service: BookingService;
let lolaFile: string;
let lola: PatientSession;
let marcoFile: string;
let marco: PatientSession;
let booked: string;
let byTherapist: string;
let past: string;
let oldToken: string;

const S = (fileId: string) => `/api/v1/patient/files/${fileId}/sessions`;
const list = async (who: PatientSession, fileId: string, when = 'upcoming') => {
  const res = await t.get(`${S(fileId)}?when=${when}`, { token: who.accessToken });
  expect(res.statusCode, res.body).toBe(200);
  return json<CompanionSessions>(res);
};
const therapistSession = async (patientId: string, day: string, from: string, to: string) => {
  const res = await t.post(`/api/v1/workspaces/${k.ws.id}/sessions`, { patientId, day, from, to }, { token: k.owner.accessToken });
  expect(res.statusCode, res.body).toBe(201);
  return json<{ session: { id: string } }>(res).session.id;
};

beforeAll(async () => {
  t = await createTestApp({}, { clock: () => now });
  k = await bookingKit(t, 'companion');
  service = await k.createService();
  // Lola books on the public page (a new file), then connects it to her account.
  oldToken = (await k.book(service, at('2026-11-30', '09:00'), 'lola@companion.test')).token;
  lolaFile = (await t.rows<{ id: string }>(sql`select id from patients where email = 'lola@companion.test'`))[0]!.id;
  booked = (await t.rows<{ id: string }>(sql`select id from sessions where patient_id = ${lolaFile}`))[0]!.id;
  byTherapist = await therapistSession(lolaFile, '2026-12-02', '10:00', '10:50');
  past = await therapistSession(lolaFile, '2026-11-20', '10:00', '10:50');
  lola = await connectedPatient(t, k.owner.accessToken, k.ws.id, lolaFile, 'lola@companion.test');
  marcoFile = await records.patient(t, k.owner.accessToken, k.ws.id);
  await therapistSession(marcoFile, '2026-12-01', '12:00', '12:50');
  marco = await connectedPatient(t, k.owner.accessToken, k.ws.id, marcoFile, 'marco@companion.test');
}, 60_000);
afterAll(() => t?.close());

describe('the patient’s sessions', () => {
  it('upcoming soonest first, past latest first; only a session booked from a service may be changed, until its notice', async () => {
    const up = await list(lola, lolaFile);
    expect(up).toMatchObject({ total: 2, page: 1, pageSize: 20 });
    expect(up.items.map((s) => s.id)).toEqual([booked, byTherapist]);
    const [online, other] = up.items as [CompanionSession, CompanionSession];
    expect(online).toMatchObject({
      startsAt: '2026-11-30T08:00:00.000Z',
      endsAt: '2026-11-30T08:50:00.000Z',
      timeZone: 'Europe/Madrid',
      status: 'pending',
      modality: 'online',
      location: null,
      therapistName: 'Olga',
      service: { id: service.id, title: 'Primera consulta' },
      canCancel: true,
      canMove: true,
      changeableUntil: '2026-11-29T08:00:00.000Z',
    });
    expect(online.videoLink).toMatch(new RegExp(`/meet/${booked}\\?t=`));
    expect(other).toMatchObject({ service: null, canCancel: false, canMove: false, changeableUntil: null });
    expect((await list(lola, lolaFile, 'past')).items.map((s) => s.id)).toEqual([past]);
    const one = await t.get(`${S(lolaFile)}/${booked}`, { token: lola.accessToken });
    expect(json<{ session: CompanionSession }>(one).session.id).toBe(booked);
  });

  it('offers the service’s free slots (its own time counted free) and moves to one; the mail’s new link works, the old one no more', async () => {
    expect((await t.get(`/api/v1/public/bookings/${oldToken}`)).statusCode).toBe(200);
    const slots = json<PublicSlots>(await t.get(`${S(lolaFile)}/${booked}/slots?month=2026-11`, { token: lola.accessToken }));
    expect(slots.days.find((d) => d.day === '2026-11-30')?.slots.map((s) => s.therapist.from)).toEqual([
      '09:00',
      '10:00',
      '11:00',
      '12:00',
      '13:00',
    ]);
    expectError(
      await t.post(`${S(lolaFile)}/${booked}/move`, { startsAt: at('2026-11-30', '09:30') }, { token: lola.accessToken }),
      409,
      'public_service_slot_not_available',
    );
    const moved = await t.post(`${S(lolaFile)}/${booked}/move`, { startsAt: at('2026-11-30', '11:00') }, { token: lola.accessToken });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(json<{ session: CompanionSession }>(moved).session).toMatchObject({
      id: booked,
      startsAt: '2026-11-30T10:00:00.000Z',
      canCancel: true,
    });
    const mail = await t.lastMail('lola@companion.test');
    const newToken = /\/v1\/reservations\/manage\/([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    expect((await t.get(`/api/v1/public/bookings/${newToken}`)).statusCode).toBe(200);
    expectError(await t.get(`/api/v1/public/bookings/${oldToken}`), 404, 'public_booking_not_found');
  });

  it('a session the therapist booked is read only', async () => {
    expectError(
      await t.post(`${S(lolaFile)}/${byTherapist}/cancel`, {}, { token: lola.accessToken }),
      409,
      'companion_session_not_changeable',
    );
    expectError(
      await t.post(`${S(lolaFile)}/${byTherapist}/move`, { startsAt: at('2026-12-02', '11:00') }, { token: lola.accessToken }),
      409,
      'companion_session_not_changeable',
    );
    expectError(
      await t.get(`${S(lolaFile)}/${byTherapist}/slots?month=2026-12`, { token: lola.accessToken }),
      409,
      'companion_session_not_changeable',
    );
  });

  it('another patient’s file or session answers 404', async () => {
    expectError(await t.get(S(lolaFile), { token: marco.accessToken }), 404, 'patient_file_not_found');
    expectError(await t.post(`${S(lolaFile)}/${booked}/cancel`, {}, { token: marco.accessToken }), 404, 'patient_file_not_found');
    // Lola's session through Marco's own file: not one of his.
    for (const path of [`${S(marcoFile)}/${booked}`, `${S(marcoFile)}/${booked}/slots?month=2026-11`])
      expectError(await t.get(path, { token: marco.accessToken }), 404, 'therapy_session_not_found');
    expectError(await t.post(`${S(marcoFile)}/${booked}/cancel`, {}, { token: marco.accessToken }), 404, 'therapy_session_not_found');
    expectError(await t.get(`${S(lolaFile)}/${randomUUID()}`, { token: lola.accessToken }), 404, 'therapy_session_not_found');
    expect((await list(marco, marcoFile)).items).toHaveLength(1);
  });

  it('cancels outside the window no more, within it yes', async () => {
    now = new Date('2026-11-29T10:30:00Z');
    expect((await list(lola, lolaFile)).items[0]).toMatchObject({ id: booked, canCancel: false, canMove: false, changeableUntil: null });
    expectError(await t.post(`${S(lolaFile)}/${booked}/cancel`, {}, { token: lola.accessToken }), 409, 'companion_session_change_closed');
    expectError(
      await t.post(`${S(lolaFile)}/${booked}/move`, { startsAt: at('2026-12-02', '12:00') }, { token: lola.accessToken }),
      409,
      'companion_session_change_closed',
    );
    now = new Date('2026-11-28T10:00:00Z');
    const res = await t.post(`${S(lolaFile)}/${booked}/cancel`, {}, { token: lola.accessToken });
    expect(res.statusCode, res.body).toBe(200);
    expect(json<{ session: CompanionSession }>(res).session).toMatchObject({
      id: booked,
      status: 'canceled',
      canCancel: false,
      videoLink: null,
    });
    const [row] = await t.rows<{ status: string; cancellation_reason: string }>(
      sql`select status, cancellation_reason from sessions where id = ${booked}`,
    );
    expect(row).toEqual({ status: 'canceled', cancellation_reason: 'patient' });
    expectError(await t.post(`${S(lolaFile)}/${booked}/cancel`, {}, { token: lola.accessToken }), 409, 'companion_session_change_closed');
  });
});
