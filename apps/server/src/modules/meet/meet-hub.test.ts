import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { MEET_SOCKET_PATH, SOCKET_INVALID_FRAME_LIMIT, errorMessage, type MeetRole } from '@divan/core';
import { createTestApp, type TestApp } from '../../test/test-app';
import { connectSocket } from '../../test/ws-client';

type Socket = Awaited<ReturnType<typeof connectSocket>>;
const redisUrl = process.env.REDIS_URL;
if (!redisUrl && process.env.CI === 'true')
  throw new Error('REDIS_URL is required under CI: the video room across processes must be tested');

const offer = { description: { type: 'offer', sdp: 'v=0 oferta' } };
const answer = { description: { type: 'answer', sdp: 'v=0 respuesta' } };
const candidate = { candidate: { candidate: 'candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host', sdpMid: '0', sdpMLineIndex: 0 } };

/** A participant's page: its socket to `base`, joined to `room` as `role` (a page keeps its client id across reconnections). */
async function enter(t: TestApp, base: string, room: string, role: MeetRole, clientId = `pagina-${randomUUID()}`) {
  const ws = await connectSocket(base, MEET_SOCKET_PATH);
  ws.send('join', { ticket: t.app.services.meet.tokens.signTicket({ sessionId: room, role }), clientId });
  return Object.assign(ws, { clientId });
}
const state = async (ws: Socket) => (await ws.next('room')).data;

/** The therapist and an admitted patient, their offer, answer and candidates relayed both ways. */
async function call(therapist: Socket, patient: Socket) {
  therapist.send('signal', offer);
  expect((await patient.next('signal')).data).toEqual(offer);
  patient.send('signal', answer);
  expect((await therapist.next('signal')).data).toEqual(answer);
  patient.send('signal', candidate);
  therapist.send('signal', { candidate: null });
  expect((await therapist.next('signal')).data).toEqual(candidate);
  expect((await patient.next('signal')).data).toEqual({ candidate: null });
}

describe('the video room on one server', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp();
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t?.close());

  it('keeps the patient waiting until the therapist admits, then relays offer, answer and candidates', async () => {
    const room = randomUUID();
    const patient = await enter(t, base, room, 'patient');
    expect(await state(patient)).toEqual({ role: 'patient', admitted: false, peer: null });
    // Before admission nothing the patient sends reaches the therapist.
    patient.send('signal', { description: { type: 'offer', sdp: 'antes de entrar' } });
    const therapist = await enter(t, base, room, 'therapist');
    expect(await state(therapist)).toEqual({ role: 'therapist', admitted: true, peer: { role: 'patient', admitted: false } });
    expect(await state(patient)).toEqual({ role: 'patient', admitted: false, peer: { role: 'therapist', admitted: true } });
    therapist.send('admit');
    expect(await state(patient)).toEqual({ role: 'patient', admitted: true, peer: { role: 'therapist', admitted: true } });
    await therapist.next('peer-ready');
    expect(await state(therapist)).toEqual({ role: 'therapist', admitted: true, peer: { role: 'patient', admitted: true } });
    await call(therapist, patient);
    therapist.close();
    patient.close();
  });

  it('refuses a third participant in Spanish, and a ticket that is forged', async () => {
    const room = randomUUID();
    const therapist = await enter(t, base, room, 'therapist');
    const patient = await enter(t, base, room, 'patient');
    await state(patient);
    for (const role of ['patient', 'therapist'] as const) {
      const third = await enter(t, base, room, role);
      expect((await third.next('refused')).data).toEqual({
        code: 'meet_room_full',
        message: 'La sala ya está completa: en esta videollamada solo pueden estar dos personas.',
      });
      expect((await third.closedWith())?.code).toBe(4000);
    }
    const forged = await connectSocket(base, MEET_SOCKET_PATH);
    const ticket = t.app.services.meet.tokens.signTicket({ sessionId: room, role: 'patient' });
    forged.send('join', { ticket: ticket.replace(/.$/, (ch) => (ch === 'A' ? 'B' : 'A')), clientId: 'pagina-falsa' });
    expect((await forged.next('refused')).data).toEqual({
      code: 'meet_ticket_invalid',
      message: 'Tu acceso a la sala ha caducado. Vuelve a entrar.',
    });
    therapist.close();
    patient.close();
  });

  it('refuses a bad frame and stays in the room; ends a socket that floods them, in Spanish', async () => {
    const room = randomUUID();
    const therapist = await enter(t, base, room, 'therapist');
    await state(therapist);
    therapist.send('signal', { description: { type: 'offer', sdp: 42 } });
    expect((await therapist.next('error')).data).toEqual({ code: 'socket_frame_invalid', message: errorMessage('socket_frame_invalid') });
    therapist.send('ping');
    await therapist.next('pong');
    for (let i = 0; i < SOCKET_INVALID_FRAME_LIMIT; i++) therapist.raw('null');
    expect((await therapist.next('refused')).data).toEqual({
      code: 'socket_too_many_invalid_frames',
      message: 'Demasiados mensajes no válidos: el canal se ha cerrado.',
    });
    expect((await therapist.closedWith())?.code).toBe(4000);
    // Its place is free again: the page may come back.
    const again = await enter(t, base, room, 'therapist');
    expect(await state(again)).toEqual({ role: 'therapist', admitted: true, peer: null });
    again.close();
  });

  it('takes the same page back after a drop without waiting again, and has the therapist call again', async () => {
    const room = randomUUID();
    const therapist = await enter(t, base, room, 'therapist');
    const patient = await enter(t, base, room, 'patient');
    await state(patient);
    therapist.send('admit');
    await therapist.next('peer-ready');
    // The network drops: the page comes back on a new socket before the old one is seen gone.
    const again = await enter(t, base, room, 'patient', patient.clientId);
    expect((await patient.closedWith())?.code).toBe(4001);
    expect(await state(again)).toEqual({ role: 'patient', admitted: true, peer: { role: 'therapist', admitted: true } });
    await therapist.next('peer-ready');
    await call(therapist, again);
    // The therapist leaves: the patient is alone, and says so.
    therapist.send('leave');
    expect(await state(again)).toEqual({ role: 'patient', admitted: true, peer: null });
    again.close();
  });
});

describe.skipIf(!redisUrl)('the video room across two server processes sharing Redis', () => {
  let a: TestApp;
  let b: TestApp;
  let baseA: string;
  let baseB: string;
  beforeAll(async () => {
    console.log('meet across processes: using', redisUrl);
    a = await createTestApp({ redisUrl });
    // Same APP_SECRET: B accepts the tickets A gives (as processes of one deployment do).
    b = await createTestApp({ redisUrl, appSecret: a.config.appSecret });
    baseA = await a.app.listen({ port: 0, host: '127.0.0.1' });
    baseB = await b.app.listen({ port: 0, host: '127.0.0.1' });
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('admits and relays between a therapist on one process and a patient on the other; a third on either is refused', async () => {
    const room = randomUUID();
    const therapist = await enter(a, baseA, room, 'therapist');
    expect(await state(therapist)).toEqual({ role: 'therapist', admitted: true, peer: null });
    const patient = await enter(a, baseB, room, 'patient');
    expect(await state(therapist)).toEqual({ role: 'therapist', admitted: true, peer: { role: 'patient', admitted: false } });
    // B learns of the therapist from A's answer to its announcement.
    let seen = await state(patient);
    while (!seen || !(seen as { peer: unknown }).peer) seen = await state(patient);
    expect(seen).toEqual({ role: 'patient', admitted: false, peer: { role: 'therapist', admitted: true } });
    therapist.send('admit');
    await therapist.next('peer-ready');
    let admitted = await state(patient);
    while (!(admitted as { admitted: boolean }).admitted) admitted = await state(patient);
    await call(therapist, patient);
    for (const base of [baseA, baseB]) {
      const third = await enter(a, base, room, 'patient');
      expect((await third.next('refused', 10_000)).data).toMatchObject({ code: 'meet_room_full' });
    }
    // The patient's page comes back through process A: still admitted, and the therapist calls again.
    const again = await enter(a, baseA, room, 'patient', patient.clientId);
    expect((await patient.closedWith(10_000))?.code).toBe(4001);
    await therapist.next('peer-ready', 10_000);
    await call(therapist, again);
    therapist.close();
    again.close();
  }, 60_000);
});
