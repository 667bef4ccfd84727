import {
  toInstant,
  type BookingConfirmResult,
  type BookingHold,
  type BookingService,
  type CreateBookingServiceBody,
  type Workspace,
} from '@divan/core';
import { json, type TestApp } from '../../test/test-app';
import { createWorkspace, therapist, type Therapist } from '../../test/workspace-fixtures';

/** Mondays and Wednesdays 09:00–14:00 in Madrid: slots at 09:00, 10:00 … 13:00 (50 minutes and a 10-minute gap). */
export const SERVICE: CreateBookingServiceBody = {
  title: 'Primera consulta',
  schedule: { 1: [{ from: '09:00', to: '14:00' }], 3: [{ from: '09:00', to: '14:00' }] },
  timeZone: 'Europe/Madrid',
  priceCents: 6000,
  modality: 'online',
  durationMinutes: 50,
  gapMinutes: 10,
};

/** A Madrid wall-clock time as the instant the API takes. */
export const at = (day: string, time: string) => toInstant(day, time, 'Europe/Madrid').toISOString();

export type Kit = Awaited<ReturnType<typeof bookingKit>>;

/** A workspace on the team plan with one therapist and her service, and the calls of the public booking flow. */
export async function bookingKit(t: TestApp, slug: string) {
  const owner: Therapist = await therapist(t, `olga@${slug}.test`, 'Olga');
  const ws: Workspace = await createWorkspace(t, owner, `Consulta ${slug}`, 'freelance');
  await t.app.services.workspaces.setPlan(ws.id, { id: 'team', seats: 10 });
  const createService = async (body: Partial<CreateBookingServiceBody> = {}) => {
    const res = await t.post(`/api/v1/workspaces/${ws.id}/booking-services`, { ...SERVICE, ...body }, { token: owner.accessToken });
    if (res.statusCode !== 201) throw new Error(res.body);
    return json<BookingService>(res);
  };
  const holdsUrl = (s: { id: string }) => `/api/v1/public/reservations/${ws.id}/${owner.userId}/${s.id}/holds`;
  const visitor = (email: string, extra: Record<string, unknown> = {}) => ({
    firstName: 'Lola',
    lastName: 'Martín',
    email,
    phone: '612 345 678',
    privacyAccepted: true,
    ...extra,
  });
  const hold = (s: { id: string }, startsAt: string, email: string, extra: Record<string, unknown> = {}, app: Pick<TestApp, 'post'> = t) =>
    app.post(holdsUrl(s), { startsAt, ...visitor(email, extra) });
  /** The six-digit code of the newest mail to `email`. */
  const codeFor = async (email: string) => /^(\d{6}) /.exec((await t.lastMail(email)).subject)![1]!;
  const confirm = (holdId: string, code: string) => t.post(`/api/v1/public/booking-holds/${holdId}/confirm`, { code });
  /** Holds, reads the code from the outbox, confirms; the manage token from the confirmation mail. */
  const book = async (s: { id: string }, startsAt: string, email: string) => {
    const held = await hold(s, startsAt, email);
    if (held.statusCode !== 201) throw new Error(held.body);
    const { holdId } = json<BookingHold>(held);
    const res = await confirm(holdId, await codeFor(email));
    if (res.statusCode !== 200) throw new Error(res.body);
    const mail = await t.lastMail(email);
    const token = /\/v1\/reservations\/manage\/([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    return { holdId, result: json<BookingConfirmResult>(res), mail, token };
  };
  return { owner, ws, createService, holdsUrl, hold, codeFor, confirm, book };
}
