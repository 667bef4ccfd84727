import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { toInstant, type DomainEvents, type Session, type SessionConflict } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { clinic, nextWeek, W, type Clinic } from '../../test/session-fixtures';
import type { Therapist } from '../../test/workspace-fixtures';

type Write = { session: Session; conflicts: SessionConflict[] };
let t: TestApp;
let c: Clinic;
const events: { name: string; payload: unknown }[] = [];
const create = (who: Therapist, body: Record<string, unknown>) => t.post(`${W(c.ws.id)}/sessions`, body, { token: who.accessToken });
const made = async (who: Therapist, body: Record<string, unknown>) => {
  const res = await create(who, body);
  expect(res.statusCode, res.body).toBe(201);
  return json<Write>(res);
};
const fieldError = (res: { json(): unknown }) => {
  const b = res.json() as { code: string; message: string; fields?: { path: string; message: string }[] };
  return { code: b.code, message: b.message, fields: b.fields?.map((f) => [f.path, f.message]) };
};

beforeAll(async () => {
  t = await createTestApp();
  c = await clinic(t, 'reglas');
  for (const name of ['session.created', 'session.updated', 'session.canceled', 'session.completed'] as const)
    t.app.services.events.on(name, (payload: DomainEvents[typeof name]) => void events.push({ name, payload }), { scope: 'once' });
}, 60_000);
afterAll(() => t?.close());

describe('creating a session', () => {
  it('keeps the local day and hours in Madrid as instants, the patient’s price and the therapist’s fee (the price less the clinic’s 40 %)', async () => {
    const day = nextWeek();
    const { session, conflicts } = await made(c.owner, { patientId: c.ana, therapistId: c.tere.userId, day, from: '18:00', to: '18:50' });
    expect(session).toMatchObject({
      patient: { id: c.ana, name: 'Ana Prueba' },
      therapist: { id: c.tere.userId, name: 'Tere' },
      day,
      from: '18:00',
      to: '18:50',
      timeZone: 'Europe/Madrid',
      startsAt: toInstant(day, '18:00', 'Europe/Madrid').toISOString(),
      status: 'pending',
      price: 6000,
      fee: 3600,
      paymentsReceiver: 'therapist',
      paymentStatus: 'pending',
      modality: 'presential',
      videoConference: null,
      reminders: [1440], // the therapist's default (settings `notifications`): one a day before
      invoiced: false,
    });
    expect(conflicts).toEqual([]);
    await expect
      .poll(() => events.find((e) => e.name === 'session.created' && (e.payload as { sessionId: string }).sessionId === session.id))
      .toBeTruthy();
  });

  it('takes a fixed commission in cents off the price and keeps the member’s payments receiver; a price change recomputes the fee', async () => {
    const fixed = (await made(c.owner, { patientId: c.bruno, therapistId: c.tomas.userId, day: nextWeek(1), from: '09:00', to: '09:45' }))
      .session;
    expect([fixed.price, fixed.fee, fixed.paymentsReceiver]).toEqual([5555, 3055, 'workspace']);
    const repriced = json<Write>(
      await t.patch(`${W(c.ws.id)}/sessions/${fixed.id}`, { price: 8000 }, { token: c.owner.accessToken }),
    ).session;
    expect([repriced.price, repriced.fee]).toEqual([8000, 5500]);
    const pct = (
      await made(c.owner, { patientId: c.ana, therapistId: c.tere.userId, day: nextWeek(1), from: '12:00', to: '12:50', price: 5555 })
    ).session;
    expect(pct.fee).toBe(5555 - 2222);
    // Handed to Tomás: the clinic's fixed 25 € off the price, and his receiver.
    const moved = json<Write>(
      await t.patch(`${W(c.ws.id)}/sessions/${pct.id}`, { therapistId: c.tomas.userId }, { token: c.owner.accessToken }),
    ).session;
    expect([moved.fee, moved.paymentsReceiver]).toEqual([3055, 'workspace']);
  });

  it('keeps another zone’s wall time (the Canaries are an hour behind Madrid)', async () => {
    const day = nextWeek(2);
    const { session } = await made(c.owner, {
      patientId: c.ana,
      therapistId: c.tere.userId,
      day,
      from: '18:00',
      to: '18:50',
      timeZone: 'Atlantic/Canary',
    });
    expect([session.from, session.timeZone, session.startsAt]).toEqual([
      '18:00',
      'Atlantic/Canary',
      toInstant(day, '19:00', 'Europe/Madrid').toISOString(),
    ]);
    const moved = json<Write>(
      await t.patch(
        `${W(c.ws.id)}/sessions/${session.id}`,
        { day, from: '18:00', to: '18:50', timeZone: 'Europe/Madrid' },
        { token: c.owner.accessToken },
      ),
    ).session;
    expect([moved.from, moved.startsAt]).toEqual(['18:00', toInstant(day, '18:00', 'Europe/Madrid').toISOString()]);
  });

  it('an online session gets Diván’s own video call unless told otherwise', async () => {
    const { session } = await made(c.tere, { patientId: c.ana, day: nextWeek(2), from: '10:00', to: '10:50', modality: 'online' });
    expect([session.therapist.id, session.videoConference]).toEqual([c.tere.userId, 'own']);
  });
});

describe('the session rules of §5, in Spanish', () => {
  it('start before end, also on the instants (a clock change folds 02:00–03:00 on the last Sunday of March)', async () => {
    const res = await create(c.owner, { patientId: c.ana, therapistId: c.tere.userId, day: nextWeek(), from: '11:00', to: '10:00' });
    expect([res.statusCode, fieldError(res).fields]).toEqual([400, [['to', 'La hora de inicio debe ser anterior a la hora de fin']]]);
    const gap = await create(c.owner, { patientId: c.ana, therapistId: c.tere.userId, day: '2027-03-28', from: '02:00', to: '03:00' });
    expect([gap.statusCode, fieldError(gap).message]).toEqual([400, 'La hora de inicio debe ser anterior a la hora de fin']);
  });

  it('not starting more than a year ago; a month ago is fine (sessions are entered late)', async () => {
    const old = await create(c.owner, {
      patientId: c.ana,
      therapistId: c.tere.userId,
      day: nextWeek(-7 - 400),
      from: '10:00',
      to: '11:00',
    });
    expect([old.statusCode, fieldError(old).fields]).toEqual([400, [['day', 'La sesión no puede empezar hace más de un año']]]);
    expect(
      (await create(c.owner, { patientId: c.ana, therapistId: c.tere.userId, day: nextWeek(-37), from: '10:00', to: '11:00' })).statusCode,
    ).toBe(201);
  });

  it('no sessions for a patient who is not active', async () => {
    const paused = await c.patient('Pausada', c.tere.userId);
    const put = await t.put(`${W(c.ws.id)}/patients/${paused}/treatment`, { status: 'paused' }, { token: c.owner.accessToken });
    expect(put.statusCode, put.body).toBe(200);
    const res = await create(c.owner, { patientId: paused, therapistId: c.tere.userId, day: nextWeek(), from: '10:00', to: '11:00' });
    expect([res.statusCode, fieldError(res).code, fieldError(res).message]).toEqual([
      409,
      'patient_not_active',
      'No puedes crear sesiones para pacientes no activos',
    ]);
  });

  it('reminders capped by the plan, with the spec’s message', async () => {
    const body = { patientId: c.ana, therapistId: c.tere.userId, day: nextWeek(), from: '13:00', to: '13:50', reminders: [1440, 60] };
    expect((await create(c.owner, body)).statusCode).toBe(201);
    await t.app.services.workspaces.setPlan(c.ws.id, { id: 'basic', seats: 10 });
    try {
      const res = await create(c.owner, body);
      expect([res.statusCode, fieldError(res).message, fieldError(res).fields]).toEqual([
        400,
        'Tu plan permite 1 recordatorios por sesión',
        [['reminders', 'Tu plan permite 1 recordatorios por sesión']],
      ]);
      expect((await create(c.owner, { ...body, reminders: [60] })).statusCode).toBe(201);
    } finally {
      await t.app.services.workspaces.setPlan(c.ws.id, { id: 'team', seats: 10 });
    }
  });

  it('an unknown location, or another workspace’s, is location_not_found', async () => {
    const other = await clinic(t, 'ajena');
    for (const locationId of [crypto.randomUUID(), other.roomId]) {
      const res = await create(c.owner, {
        patientId: c.ana,
        therapistId: c.tere.userId,
        day: nextWeek(),
        from: '15:00',
        to: '15:50',
        locationId,
      });
      expect([res.statusCode, fieldError(res).code]).toEqual([404, 'location_not_found']);
    }
  });

  it('a therapist who is not a member is refused', async () => {
    const res = await create(c.owner, { patientId: c.ana, therapistId: crypto.randomUUID(), day: nextWeek(), from: '15:00', to: '15:50' });
    expect([res.statusCode, fieldError(res).code]).toEqual([400, 'therapist_not_member']);
  });
});

describe('conflicts: a warning, never a refusal', () => {
  it('names overlapping sessions of the same therapist and of the same room, not canceled ones nor touching ones', async () => {
    const day = nextWeek(3);
    const first = (
      await made(c.owner, { patientId: c.ana, therapistId: c.tere.userId, day, from: '10:00', to: '11:00', locationId: c.roomId })
    ).session;
    const touching = await made(c.owner, { patientId: c.ana, therapistId: c.tere.userId, day, from: '11:00', to: '12:00' });
    expect(touching.conflicts).toEqual([]);
    const same = await made(c.owner, { patientId: c.ana, therapistId: c.tere.userId, day, from: '10:30', to: '11:30' });
    expect(same.conflicts.map((x) => [x.id, x.kind]).sort()).toEqual(
      [
        [first.id, 'therapist'],
        [touching.session.id, 'therapist'],
      ].sort(),
    );
    const room = await made(c.owner, {
      patientId: c.bruno,
      therapistId: c.tomas.userId,
      day,
      from: '10:15',
      to: '10:45',
      locationId: c.roomId,
    });
    expect(room.conflicts.map((x) => [x.id, x.kind])).toEqual([[first.id, 'location']]);
    // Canceled: no longer in the way.
    expect(
      (await t.post(`${W(c.ws.id)}/sessions/${first.id}/cancel`, { reason: 'patient' }, { token: c.owner.accessToken })).statusCode,
    ).toBe(200);
    const moved = json<Write>(
      await t.patch(`${W(c.ws.id)}/sessions/${room.session.id}`, { day, from: '10:20', to: '10:50' }, { token: c.owner.accessToken }),
    );
    expect(moved.conflicts).toEqual([]);
  });
});

describe('moving, canceling, completing and paying', () => {
  it('moves with a session.updated event marked rescheduled; cancels with a reason; completes; marks paid', async () => {
    const s = (await made(c.owner, { patientId: c.ana, therapistId: c.tere.userId, day: nextWeek(4), from: '16:00', to: '16:50' })).session;
    const day = nextWeek(5);
    const moved = json<Write>(
      await t.patch(`${W(c.ws.id)}/sessions/${s.id}`, { day, from: '17:00', to: '17:50' }, { token: c.tere.accessToken }),
    ).session;
    expect([moved.day, moved.from, moved.to, moved.startsAt]).toEqual([
      day,
      '17:00',
      '17:50',
      toInstant(day, '17:00', 'Europe/Madrid').toISOString(),
    ]);
    await expect
      .poll(
        () =>
          events.find((e) => e.name === 'session.updated' && (e.payload as { sessionId: string; rescheduled: boolean }).sessionId === s.id)
            ?.payload,
      )
      .toMatchObject({ rescheduled: true });

    const partial = await t.patch(`${W(c.ws.id)}/sessions/${s.id}`, { day }, { token: c.tere.accessToken });
    expect(partial.statusCode).toBe(400);
    const seen = events.length;
    const same = json<Write>(await t.patch(`${W(c.ws.id)}/sessions/${s.id}`, {}, { token: c.tere.accessToken })).session;
    expect(same.updatedAt).toBe(moved.updatedAt);
    await new Promise((r) => setTimeout(r, 50));
    expect(events.length).toBe(seen);

    const paid = json<Session>(
      await t.post(`${W(c.ws.id)}/sessions/${s.id}/payment`, { paymentType: 'card', chargeDate: day }, { token: c.rosa.accessToken }),
    );
    expect([paid.paymentStatus, paid.paymentType, paid.chargeDate, typeof paid.paidAt]).toEqual(['paid', 'card', day, 'string']);

    const done = json<Session>(await t.post(`${W(c.ws.id)}/sessions/${s.id}/complete`, undefined, { token: c.tere.accessToken }));
    expect([done.status, typeof done.completedAt]).toEqual(['completed', 'string']);
    const { session: noShow, canceled } = json<{ session: Session; canceled: number }>(
      await t.post(`${W(c.ws.id)}/sessions/${s.id}/cancel`, { reason: 'no_show' }, { token: c.tere.accessToken }),
    );
    expect([noShow.status, noShow.cancellationReason, noShow.completedAt, noShow.series, canceled]).toEqual([
      'canceled',
      'no_show',
      null,
      null,
      1,
    ]);
    await expect
      .poll(() => events.find((e) => e.name === 'session.canceled' && (e.payload as { sessionId: string }).sessionId === s.id)?.payload)
      .toMatchObject({ canceledBy: 'patient', reason: 'no_show' });
    const again = await t.post(`${W(c.ws.id)}/sessions/${s.id}/complete`, undefined, { token: c.tere.accessToken });
    expect([again.statusCode, fieldError(again).message]).toEqual([400, 'Una sesión cancelada no se puede marcar como realizada']);
    const bad = await t.post(`${W(c.ws.id)}/sessions/${s.id}/cancel`, { reason: 'aburrimiento' }, { token: c.tere.accessToken });
    expect(bad.statusCode).toBe(400);
  });

  it('a refused write publishes nothing', async () => {
    const before = events.length;
    const res = await create(c.owner, {
      patientId: c.ana,
      therapistId: c.tere.userId,
      day: nextWeek(),
      from: '15:00',
      to: '15:50',
      locationId: crypto.randomUUID(),
    });
    expect(res.statusCode).toBe(404);
    await new Promise((r) => setTimeout(r, 50));
    expect(events.length).toBe(before);
  });
});

describe('the calendar read is indexed', () => {
  it('a week of a workspace (and of one therapist) is read through the (workspace, start) indexes, not a scan', async () => {
    const plan = (therapist: boolean) =>
      t.app.services.database.db.transaction(async (tx) => {
        // Tiny test tables favour a scan: forbid it, so the plan shows whether an index can serve the read.
        await tx.execute(sql`set local enable_seqscan = off`);
        const from = new Date();
        const to = new Date(from.getTime() + 7 * 86_400_000);
        const who = therapist ? sql`and s.therapist_id = ${c.tere.userId}` : sql``;
        const res = await tx.execute(
          sql`explain select s.*, l.name from sessions s left join locations l on l.id = s.location_id
              where s.workspace_id = ${c.ws.id} and s.starts_at >= ${from.toISOString()}::timestamptz and s.starts_at < ${to.toISOString()}::timestamptz ${who}
              order by s.starts_at, s.id limit 2000`,
        );
        return (res as unknown as { rows: Record<string, string>[] }).rows.map((r) => Object.values(r)[0]).join('\n');
      });
    // On a table this small either index serves one therapist's week (the covering
    // (workspace, start) index of the statistics is as cheap as the therapist's); what must
    // never happen is a scan of the table.
    for (const therapist of [false, true]) {
      const text = await plan(therapist);
      expect(text).toMatch(/(Index (Only )?Scan using|Bitmap Index Scan on) sessions_workspace_(therapist_)?starts_idx/);
      expect(text).not.toMatch(/Seq Scan on sessions/);
    }
  });
});
