import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorMessage } from '@divan/core';
import { AUTH, createTestApp, device, type TestApp } from '../../test/test-app';

/**
 * A public link with garbage in it (a short or mangled token, a NUL, an id that is not one) is only a link
 * that does not exist: the route's own «not found» (404), as for an unknown link, never a 400 about the
 * token's length or characters (issue 24). Every public link route: a booking's manage link, the booking
 * page and its hold, a signing link, a pay link, a connect invitation, sign-up and reset links, the
 * calendar feed, a public picture, the video room's patient link.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(() => t?.close());

const GARBAGE = ['abc', 'a%00b', '%C3%B1%24%3C', 'x'.repeat(90), '1234567890123456789012345678901234567890123'];
const notFound = (code: string) => ({ status: 404, body: { code, message: expect.any(String) as string } });

describe('a public link with garbage in it is «not found»', () => {
  it.each(GARBAGE)('%s, in the path of every public link route', async (bad) => {
    const routes: [method: 'GET' | 'POST', url: string, code: string, body?: unknown][] = [
      ['GET', `/api/v1/public/bookings/${bad}`, 'public_booking_not_found'],
      ['POST', `/api/v1/public/bookings/${bad}/cancel`, 'public_booking_not_found'],
      ['POST', `/api/v1/public/bookings/${bad}/move`, 'public_booking_not_found', { startsAt: '2030-05-10T10:00:00Z' }],
      ['GET', `/api/v1/public/consents/${bad}`, 'consent_not_found'],
      ['GET', `/api/v1/public/payment-links/${bad}`, 'payment_link_invalid'],
      ['POST', `/api/v1/public/payment-links/${bad}/checkout`, 'payment_link_invalid'],
      ['GET', `/api/v1/public/patient-connect/${bad}`, 'patient_connect_invitation_not_found'],
      ['POST', `/api/v1/public/patient-connect/${bad}/code`, 'patient_connect_invitation_not_found'],
      ['GET', `/api/v1/calendar-feeds/${bad}.ics`, 'not_found'],
      ['GET', `/api/v1/files/${bad}`, 'not_found'],
      ['GET', `/api/v1/public/reservations/${bad}`, 'public_service_not_found'],
      ['GET', `/api/v1/public/reservations/${bad}/${bad}/${bad}`, 'public_service_not_found'],
      ['POST', `/api/v1/public/booking-holds/${bad}/confirm`, 'challenge_not_found', { code: '123456' }],
      ['POST', `/api/v1/meet/${bad}/join`, 'meet_link_invalid', { t: 'x' }],
    ];
    const seen = [];
    for (const [method, url, , body] of routes) {
      const res = await t.app.inject({ method, url, ...(body ? { payload: body as object } : {}) });
      seen.push([method, url, res.statusCode, res.json() as unknown]);
    }
    expect(seen).toEqual(routes.map(([method, url, code]) => [method, url, ...Object.values(notFound(code))]));
  });

  it.each([...GARBAGE, 'Ana\u0000Ruiz', 'x'.repeat(5000)])('%s, as the token of a sign-up or reset link', async (bad) => {
    const code = decodeURIComponent(bad.replace('%00', '\u0000'));
    const confirm = await t.post(`${AUTH}/signup/challenge`, { code, ...device });
    const reset = await t.post(`${AUTH}/password/challenge`, { code, password: 'Consulta2026', ...device });
    expect([confirm.statusCode, confirm.json(), reset.statusCode, reset.json()]).toEqual([
      404,
      { code: 'challenge_not_found', message: errorMessage('challenge_not_found') },
      404,
      { code: 'challenge_not_found', message: errorMessage('challenge_not_found') },
    ]);
  });
});
