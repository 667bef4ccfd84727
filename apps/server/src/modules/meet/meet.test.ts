import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toInstant, toLocal, type MeetJoin, type Session } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { clinic, nextWeek, W, type Clinic } from '../../test/session-fixtures';
import type { Therapist } from '../../test/workspace-fixtures';

const TZ = 'Europe/Madrid';
let t: TestApp;
let c: Clinic;
let other: Clinic;
/** Tere's online session happening now (in the patient's window), one next week, one presential. */
let now: Session;
let later: Session;
let presential: Session;

/** A day and hours that put the session's window around the present, within one local day. */
function aroundNow() {
  const at = new Date();
  const local = toLocal(at, TZ);
  const start = local.time >= '01:00' ? new Date(at.getTime() - 60 * 60_000) : new Date(at.getTime() + 60_000);
  const from = toLocal(start, TZ).time;
  const [h, m] = from.split(':').map(Number) as [number, number];
  const end = h * 60 + m + 50;
  return { day: toLocal(start, TZ).day, from, to: `${String(Math.floor(end / 60)).padStart(2, '0')}:${String(end % 60).padStart(2, '0')}` };
}

const make = async (who: Therapist, body: object) => {
  const res = await t.post(`${W(c.ws.id)}/sessions`, body, { token: who.accessToken });
  if (res.statusCode !== 201) throw new Error(res.body);
  return json<{ session: Session }>(res).session;
};
const tokenOf = (link: string) => new URL(link).searchParams.get('t')!;
const asPatient = (sessionId: string, token: string) => t.post(`/api/v1/meet/${sessionId}/join`, { t: token });
const asMember = (who: Therapist, sessionId: string, ws = c.ws.id) =>
  t.post(`${W(ws)}/sessions/${sessionId}/meet`, undefined, { token: who.accessToken });
const refusal = (res: { statusCode: number; json(): unknown }) => [
  res.statusCode,
  (res.json() as { code: string }).code,
  (res.json() as { message: string }).message,
];

beforeAll(async () => {
  t = await createTestApp({ iceServers: [{ urls: 'turn:turn.example.org:3478', username: 'diván', credential: 'secreto' }] });
  c = await clinic(t, 'meet');
  other = await clinic(t, 'meet-otra');
  now = await make(c.tere, { patientId: c.ana, ...aroundNow(), modality: 'online' });
  later = await make(c.tere, { patientId: c.ana, day: nextWeek(), from: '18:00', to: '18:50', modality: 'online' });
  presential = await make(c.tere, { patientId: c.ana, day: nextWeek(1), from: '18:00', to: '18:50', modality: 'presential' });
}, 60_000);
afterAll(() => t?.close());

describe('the patient’s link', () => {
  it('is PUBLIC_URL/meet/<id>?t=<token>, unguessable, one per session and the same every time', () => {
    const link = t.app.services.meet.patientLink(now);
    expect(link).toMatch(new RegExp(`^http://divan\\.test/meet/${now.id}\\?t=[\\w-]{43}$`));
    expect(t.app.services.meet.patientLink(now)).toBe(link);
    expect(tokenOf(t.app.services.meet.patientLink(later))).not.toBe(tokenOf(link));
  });

  it('lets the patient in during the session, without an account, with the ICE servers and the therapist’s name only', async () => {
    expect(now.videoConference).toBe('own');
    const res = await asPatient(now.id, tokenOf(t.app.services.meet.patientLink(now)));
    expect(res.statusCode).toBe(200);
    const join = json<MeetJoin>(res);
    expect(join).toMatchObject({
      role: 'patient',
      iceServers: [{ urls: 'turn:turn.example.org:3478', username: 'diván', credential: 'secreto' }],
      session: { id: now.id, therapistName: 'Tere' },
    });
    expect(join.session.patientName).toBeUndefined();
    expect(join.patientLink).toBeUndefined();
    expect(t.app.services.meet.tokens.verifyTicket(join.ticket)).toMatchObject({ sessionId: now.id, role: 'patient' });
  });

  it('refuses a wrong token, another session’s token and a session that does not exist, all alike', async () => {
    const good = tokenOf(t.app.services.meet.patientLink(now));
    const wrong = await asPatient(now.id, good.slice(0, -2) + (good.endsWith('AA') ? 'BB' : 'AA'));
    const swapped = await asPatient(now.id, tokenOf(t.app.services.meet.patientLink(later)));
    const ghostId = crypto.randomUUID();
    const ghost = await asPatient(ghostId, tokenOf(t.app.services.meet.patientLink({ id: ghostId })));
    const message = 'El enlace de la videollamada no es válido. Ábrelo desde el último email de la sesión.';
    for (const res of [wrong, swapped, ghost]) expect(refusal(res)).toEqual([404, 'meet_link_invalid', message]);
    // A garbage id in the link is only one more link that leads nowhere (issue 24).
    expect(refusal(await asPatient('no-es-un-id', good))).toEqual([404, 'meet_link_invalid', message]);
  });

  it('opens 30 minutes before the session and closes 2 hours after it, saying so in Spanish', async () => {
    const meet = t.app.services.meet;
    const token = tokenOf(meet.patientLink(later));
    const startsAt = toInstant(nextWeek(), '18:00', TZ);
    const endsAt = toInstant(nextWeek(), '18:50', TZ);
    const at = (ms: number) => meet.joinAsPatient(later.id, token, new Date(ms));
    const [y, m, d] = nextWeek().split('-');
    await expect(at(startsAt.getTime() - 31 * 60_000)).rejects.toMatchObject({
      code: 'meet_not_open',
      message: `La sala se abre 30 minutos antes de la sesión, que empieza el ${d}/${m}/${y} a las 18:00. Vuelve a abrir este enlace entonces.`,
    });
    await expect(at(startsAt.getTime() - 30 * 60_000)).resolves.toMatchObject({ role: 'patient' });
    await expect(at(endsAt.getTime() + 120 * 60_000)).resolves.toMatchObject({ role: 'patient' });
    await expect(at(endsAt.getTime() + 121 * 60_000)).rejects.toMatchObject({
      code: 'meet_closed',
      message: expect.stringMatching(/^Esta sesión ya ha terminado/),
    });
    // Over HTTP, now: next week's room is not open yet.
    expect(refusal(await asPatient(later.id, token))).toEqual([
      409,
      'meet_not_open',
      expect.stringMatching(/^La sala se abre 30 minutos antes/),
    ]);
  });

  it('follows the session when it is moved: the same link, the new time', async () => {
    const meet = t.app.services.meet;
    const token = tokenOf(meet.patientLink(later));
    const moved = await t.patch(
      `${W(c.ws.id)}/sessions/${later.id}`,
      { day: nextWeek(), from: '20:00', to: '20:50' },
      { token: c.tere.accessToken },
    );
    expect(moved.statusCode).toBe(200);
    const newStart = toInstant(nextWeek(), '20:00', TZ).getTime();
    await expect(meet.joinAsPatient(later.id, token, new Date(newStart - 20 * 60_000))).resolves.toMatchObject({ role: 'patient' });
    await expect(meet.joinAsPatient(later.id, token, new Date(newStart - 40 * 60_000))).rejects.toMatchObject({ code: 'meet_not_open' });
  });

  it('refuses a presential session and a canceled one', async () => {
    const meet = t.app.services.meet;
    const at = new Date(toInstant(nextWeek(1), '18:00', TZ).getTime());
    await expect(meet.joinAsPatient(presential.id, tokenOf(meet.patientLink(presential)), at)).rejects.toMatchObject({
      code: 'meet_not_available',
      message: 'Esta sesión no tiene videollamada de Diván.',
    });
    const gone = await make(c.tere, { patientId: c.ana, ...aroundNow(), modality: 'online' });
    expect(
      (await t.post(`${W(c.ws.id)}/sessions/${gone.id}/cancel`, { reason: 'patient' }, { token: c.tere.accessToken })).statusCode,
    ).toBe(200);
    expect(refusal(await asPatient(gone.id, tokenOf(meet.patientLink(gone))))).toEqual([
      409,
      'meet_session_canceled',
      'Esta sesión se ha cancelado.',
    ]);
    expect(refusal(await asMember(c.tere, gone.id))).toEqual([409, 'meet_session_canceled', 'Esta sesión se ha cancelado.']);
  });
});

describe('members entering the room', () => {
  it('lets the session’s therapist in at any time, with the patient’s name and link', async () => {
    const res = await asMember(c.tere, later.id);
    expect(res.statusCode).toBe(200);
    expect(json<MeetJoin>(res)).toMatchObject({
      role: 'therapist',
      session: { id: later.id, therapistName: 'Tere', patientName: 'Ana Prueba' },
      patientLink: t.app.services.meet.patientLink(later),
    });
  });

  it('lets in a member who may read every session (the owner), not a Terapeuta restricted to their own, nor another workspace', async () => {
    expect((await asMember(c.owner, now.id)).statusCode).toBe(200);
    expect(refusal(await asMember(c.tomas, now.id))).toEqual([404, 'therapy_session_not_found', 'Sesión no disponible o borrada']);
    expect(refusal(await asMember(other.owner, now.id))).toEqual([404, 'workspace_not_found', 'Espacio de trabajo no encontrado.']);
    expect(refusal(await asMember(other.owner, now.id, other.ws.id))).toEqual([
      404,
      'therapy_session_not_found',
      'Sesión no disponible o borrada',
    ]);
    expect((await t.post(`${W(c.ws.id)}/sessions/${now.id}/meet`)).statusCode).toBe(401);
  });
});
