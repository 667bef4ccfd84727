import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BOOKING_SERVICES_MAX,
  type AvailabilityOverrideRecord,
  type BookingService,
  type CreateBookingServiceBody,
  type PublicSlots,
  type Workspace,
} from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { createWorkspace, therapist, withWorkspace, type Therapist } from '../../test/workspace-fixtures';

const now = new Date('2026-11-28T10:00:00Z');
let t: TestApp;
let owner: Therapist;
let colleague: Therapist;
let reception: Therapist;
let stranger: Therapist;
let ws: Workspace;
let S: string;
let O: string;

type Refusal = { code: string; message: string; fields?: { path: string; message: string }[] };
const refused = (res: { statusCode: number; body: string }, status: number, code: string) => {
  expect(res.statusCode, res.body).toBe(status);
  const b = json<Refusal>(res as never);
  expect(b.code).toBe(code);
  return b;
};
const SERVICE: CreateBookingServiceBody = {
  title: 'Primera consulta',
  description: 'Una sesión de 50 minutos para conocernos.',
  schedule: {
    1: [
      { from: '09:00', to: '14:00' },
      { from: '16:00', to: '20:00' },
    ],
    3: [{ from: '09:00', to: '14:00' }],
  },
  timeZone: 'Europe/Madrid',
  priceCents: 6000,
  modality: 'online',
  durationMinutes: 50,
  gapMinutes: 10,
};

beforeAll(async () => {
  t = await createTestApp({}, { clock: () => now });
  ({
    owner,
    ws,
    members: { colleague, reception },
  } = await withWorkspace(t, 'Clínica Reservas', {
    owner: { email: 'olga@reservas.test', firstName: 'Olga' },
    plan: { id: 'team', seats: 10 },
    members: {
      colleague: { email: 'marta@reservas.test', firstName: 'Marta', role: 'Terapeuta' },
      reception: { email: 'rosa@reservas.test', firstName: 'Rosa', role: 'Recepción' },
    },
  }));
  stranger = await therapist(t, 'otro@reservas.test', 'Óscar');
  await createWorkspace(t, stranger, 'Otra consulta', 'freelance');
  S = `/api/v1/workspaces/${ws.id}/booking-services`;
  O = `/api/v1/workspaces/${ws.id}/availability-overrides`;
}, 60_000);
afterAll(() => t?.close());

describe('booking services', () => {
  let service: BookingService;

  it("creates the caller's service with the defaults a new one gets, and lists it", async () => {
    const res = await t.post(S, SERVICE, { token: owner.accessToken });
    expect(res.statusCode, res.body).toBe(201);
    service = json<BookingService>(res);
    expect(service).toMatchObject({
      therapist: { id: owner.userId, name: 'Olga' },
      title: 'Primera consulta',
      schedule: { 1: SERVICE.schedule[1], 2: [], 3: SERVICE.schedule[3], 7: [] },
      minNotice: { amount: 24, unit: 'hours' },
      maxNotice: { amount: 2, unit: 'months' },
      allowNewPatients: true,
      bookingLimitPerPatient: null,
      status: 'active',
      payment: 'none',
      location: null,
    });
    const list = json<{ items: BookingService[] }>(await t.get(S, { token: owner.accessToken }));
    expect(list.items.map((s) => s.id)).toEqual([service.id]);
    refused(await t.post(S, SERVICE, { token: owner.accessToken }), 409, 'public_service_exists');
  });

  it('refuses the §5 rules at their fields, in Spanish', async () => {
    const inverted = refused(
      await t.post(S, { ...SERVICE, title: 'B', schedule: { 2: [{ from: '14:00', to: '09:00' }] } }, { token: owner.accessToken }),
      400,
      'invalid_argument',
    );
    expect(inverted.fields).toContainEqual(expect.objectContaining({ message: 'El rango de horas está invertido' }));
    const overlap = refused(
      await t.post(
        S,
        {
          ...SERVICE,
          title: 'B',
          schedule: {
            1: [
              { from: '09:00', to: '12:00' },
              { from: '11:00', to: '13:00' },
            ],
          },
        },
        { token: owner.accessToken },
      ),
      400,
      'invalid_argument',
    );
    expect(overlap.fields!.map((f) => f.message)).toContain('Los rangos de horas del lunes se solapan');
    const noDay = refused(await t.post(S, { ...SERVICE, title: 'B', schedule: {} }, { token: owner.accessToken }), 400, 'invalid_argument');
    expect(noDay.fields!.map((f) => f.message)).toContain('Elige al menos un día de la semana con horario');
    refused(
      await t.post(S, { ...SERVICE, title: 'B', timeZone: 'Europe/Atlantida' }, { token: owner.accessToken }),
      400,
      'invalid_argument',
    );
    refused(
      await t.post(S, { ...SERVICE, title: 'B', locationId: '00000000-0000-4000-8000-000000000000' }, { token: owner.accessToken }),
      404,
      'location_not_found',
    );
    // An update runs the rules on the service as it would be saved: 3 months of minimum notice with 2 of maximum.
    const notice = refused(
      await t.patch(`${S}/${service.id}`, { minNotice: { amount: 3, unit: 'months' } }, { token: owner.accessToken }),
      400,
      'invalid_argument',
    );
    expect(notice.fields!.map((f) => f.message)).toContain(
      'La antelación mínima no puede ser mayor que la máxima más la duración de la sesión',
    );
    const paused = json<BookingService>(
      await t.patch(`${S}/${service.id}`, { status: 'paused', title: 'Primera consulta (50 min)' }, { token: owner.accessToken }),
    );
    expect(paused).toMatchObject({ status: 'paused', title: 'Primera consulta (50 min)', durationMinutes: 50 });
  });

  it('each therapist sees and changes their own; Recepción reads them all and changes none; another workspace is 404', async () => {
    const hers = json<BookingService>(await t.post(S, { ...SERVICE, title: 'Terapia de pareja' }, { token: colleague.accessToken }));
    expect(json<{ items: BookingService[] }>(await t.get(S, { token: colleague.accessToken })).items.map((s) => s.id)).toEqual([hers.id]);
    refused(await t.get(`${S}/${service.id}`, { token: colleague.accessToken }), 404, 'public_service_not_found');
    refused(await t.patch(`${S}/${service.id}`, { title: 'Mía' }, { token: colleague.accessToken }), 404, 'public_service_not_found');
    const all = json<{ items: BookingService[] }>(await t.get(S, { token: reception.accessToken }));
    expect(all.items.map((s) => s.therapist.name).sort()).toEqual(['Marta', 'Olga']);
    expect(
      json<{ items: BookingService[] }>(await t.get(`${S}?therapistId=${colleague.userId}`, { token: reception.accessToken })).items.map(
        (s) => s.id,
      ),
    ).toEqual([hers.id]);
    refused(await t.patch(`${S}/${hers.id}`, { title: 'Cambio' }, { token: reception.accessToken }), 403, 'access_denied');
    refused(await t.post(S, { ...SERVICE, title: 'De recepción' }, { token: reception.accessToken }), 403, 'access_denied');
    expect((await t.get(`${S}/${hers.id}`, { token: stranger.accessToken })).statusCode).toBe(404);
    expect((await t.del(`${S}/${hers.id}`, { token: colleague.accessToken })).statusCode).toBe(204);
    refused(await t.get(`${S}/${hers.id}`, { token: colleague.accessToken }), 404, 'public_service_not_found');
  });

  it(`a therapist keeps at most ${BOOKING_SERVICES_MAX} services`, async () => {
    const have = json<{ items: BookingService[] }>(await t.get(S, { token: owner.accessToken })).items.length;
    for (let i = have; i < BOOKING_SERVICES_MAX; i++)
      expect((await t.post(S, { ...SERVICE, title: `Servicio ${i}` }, { token: owner.accessToken })).statusCode).toBe(201);
    refused(await t.post(S, { ...SERVICE, title: 'Uno más' }, { token: owner.accessToken }), 409, 'public_service_limit_reached');
  });
});

describe('blocked days (availability overrides)', () => {
  it('blocks several dates at once, whole days or ranges; lists them from today on', async () => {
    const res = await t.post(
      O,
      {
        dates: [
          { day: '2026-12-24', allDay: true },
          { day: '2026-12-02', allDay: false, from: '16:00', to: '20:00' },
        ],
      },
      { token: owner.accessToken },
    );
    expect(res.statusCode, res.body).toBe(201);
    const made = json<{ items: AvailabilityOverrideRecord[] }>(res).items;
    expect(made.map((o) => [o.day, o.allDay, o.from, o.to])).toEqual([
      ['2026-12-02', false, '16:00', '20:00'],
      ['2026-12-24', true, null, null],
    ]);
    const list = json<{ items: AvailabilityOverrideRecord[] }>(await t.get(O, { token: owner.accessToken }));
    expect(list.items.map((o) => o.day)).toEqual(['2026-12-02', '2026-12-24']);
  });

  it('refuses repeated, past, inverted and already blocked dates, all or nothing', async () => {
    const repeated = refused(
      await t.post(O, { dates: [{ day: '2027-01-05' }, { day: '2027-01-05' }] }, { token: owner.accessToken }),
      400,
      'invalid_argument',
    );
    expect(repeated.fields).toContainEqual({ path: 'dates.1.day', message: 'Esta fecha está repetida' });
    const past = refused(await t.post(O, { dates: [{ day: '2026-11-27' }] }, { token: owner.accessToken }), 400, 'invalid_argument');
    expect(past.fields).toContainEqual({ path: 'dates.0.day', message: 'No puedes bloquear una fecha pasada' });
    const inverted = refused(
      await t.post(O, { dates: [{ day: '2027-01-07', allDay: false, from: '18:00', to: '10:00' }] }, { token: owner.accessToken }),
      400,
      'invalid_argument',
    );
    expect(inverted.fields).toContainEqual({ path: 'dates.0.to', message: 'El rango de horas está invertido' });
    const taken = refused(
      await t.post(O, { dates: [{ day: '2027-01-08' }, { day: '2026-12-24' }] }, { token: owner.accessToken }),
      409,
      'availability_restriction_exists',
    );
    expect(taken.fields![0]!.message).toContain('24/12/2026');
    const days = json<{ items: AvailabilityOverrideRecord[] }>(await t.get(O, { token: owner.accessToken })).items.map((o) => o.day);
    expect(days).not.toContain('2027-01-08');
  });

  it("Recepción blocks a therapist's days; a therapist only their own; changing and removing one", async () => {
    const forMarta = await t.post(O, { therapistId: colleague.userId, dates: [{ day: '2026-12-31' }] }, { token: reception.accessToken });
    expect(forMarta.statusCode, forMarta.body).toBe(201);
    const hers = json<{ items: AvailabilityOverrideRecord[] }>(forMarta).items[0]!;
    expect(hers.therapistId).toBe(colleague.userId);
    refused(
      await t.post(O, { therapistId: owner.userId, dates: [{ day: '2026-12-30' }] }, { token: colleague.accessToken }),
      403,
      'access_denied',
    );
    refused(
      await t.post(O, { therapistId: stranger.userId, dates: [{ day: '2026-12-30' }] }, { token: reception.accessToken }),
      400,
      'therapist_not_member',
    );
    expect(json<{ items: AvailabilityOverrideRecord[] }>(await t.get(O, { token: colleague.accessToken })).items.map((o) => o.id)).toEqual([
      hers.id,
    ]);
    const moved = json<AvailabilityOverrideRecord>(
      await t.put(`${O}/${hers.id}`, { day: '2026-12-30', allDay: false, from: '09:00', to: '12:00' }, { token: colleague.accessToken }),
    );
    expect(moved).toMatchObject({ day: '2026-12-30', allDay: false, from: '09:00', to: '12:00' });
    refused(
      await t.put(`${O}/${hers.id}`, { day: '2026-12-30', allDay: false, from: '12:00', to: '09:00' }, { token: colleague.accessToken }),
      400,
      'invalid_argument',
    );
    refused(await t.del(`${O}/${hers.id}`, { token: stranger.accessToken }), 404, 'workspace_not_found');
    expect((await t.del(`${O}/${hers.id}`, { token: colleague.accessToken })).statusCode).toBe(204);
    refused(await t.del(`${O}/${hers.id}`, { token: colleague.accessToken }), 404, 'availability_restriction_not_found');
  });
});

describe('public slots of a service', () => {
  it('a month of free slots: every session of the therapist takes its time and gap, blocked days offer nothing, notice counts from now', async () => {
    // Now is Saturday 28/11/2026 11:00 in Madrid; 24 h of minimum notice, 1 month of maximum.
    const body = {
      ...SERVICE,
      title: 'Seguimiento',
      schedule: { 1: [{ from: '09:00', to: '11:00' }], 3: [{ from: '09:00', to: '10:00' }] },
      maxNotice: { amount: 1, unit: 'months' as const },
    };
    const service = json<BookingService>(await t.post(S, body, { token: colleague.accessToken }));
    const patient = json<{ id: string }>(
      await t.post(`/api/v1/workspaces/${ws.id}/patients`, { firstName: 'Noa', lastName: 'Vidal' }, { token: colleague.accessToken }),
    );
    const session = await t.post(
      `/api/v1/workspaces/${ws.id}/sessions`,
      { patientId: patient.id, day: '2026-11-30', from: '09:00', to: '09:50' },
      { token: colleague.accessToken },
    );
    expect(session.statusCode, session.body).toBe(201);
    expect((await t.post(O, { dates: [{ day: '2026-12-02' }] }, { token: colleague.accessToken })).statusCode).toBe(201);
    const P = `/api/v1/public/reservations/${ws.id}/${colleague.userId}/${service.id}/slots`;

    const november = json<PublicSlots>(await t.get(`${P}?month=2026-11`));
    expect(november).toMatchObject({ month: '2026-11', timeZone: 'Europe/Madrid', durationMinutes: 50 });
    // Monday 30: 09:00 is taken (its session, then 10 minutes of gap); 10:00 is free.
    expect(november.days.map((d) => [d.day, d.slots.map((x) => x.therapist.from)])).toEqual([['2026-11-30', ['10:00']]]);
    expect(november.days[0]!.slots[0]).toMatchObject({
      startsAt: '2026-11-30T09:00:00.000Z',
      endsAt: '2026-11-30T09:50:00.000Z',
      sameLocalTime: true,
    });

    const december = json<PublicSlots>(await t.get(`${P}?month=2026-12&timeZone=America/Mexico_City`));
    const days = december.days.map((d) => d.day);
    expect(days).not.toContain('2026-12-02');
    expect(days.slice(0, 3)).toEqual(['2026-12-07', '2026-12-09', '2026-12-14']);
    // One month ahead at most (until 28/12 at 11:00): Monday 28 is the last day, Wednesday 30 is too far.
    expect(days.at(-1)).toBe('2026-12-28');
    expect(december.days.at(-1)!.slots.map((x) => x.therapist.from)).toEqual(['09:00', '10:00']);
    expect(december.days[0]!.slots[0]!.visitor).toEqual({ day: '2026-12-07', from: '02:00', to: '02:50', offset: 'UTC−6' });
    expect(json<PublicSlots>(await t.get(`${P}?month=2027-02`)).days).toEqual([]);
    expect(json<PublicSlots>(await t.get(`${P}?month=2026-10`)).days).toEqual([]);

    // A paused service, or a path that does not match, is not found; a bad month is a 400.
    refused(
      await t.get(`/api/v1/public/reservations/${ws.id}/${owner.userId}/${service.id}/slots?month=2026-12`),
      404,
      'public_service_not_found',
    );
    refused(await t.get(`${P}?month=2026-13`), 400, 'invalid_argument');
    await t.patch(`${S}/${service.id}`, { status: 'paused' }, { token: colleague.accessToken });
    refused(await t.get(`${P}?month=2026-12`), 404, 'public_service_not_found');
  });
});
