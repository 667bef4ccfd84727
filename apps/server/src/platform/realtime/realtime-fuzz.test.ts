import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { MEET_SOCKET_PATH, errorMessage, type MeetRole } from '@divan/core';
import { createTestApp, type TestApp } from '../../test/test-app';
import { signUpConfirmed } from '../../test/auth-flows';
import { connectSocket } from '../../test/ws-client';
import { englishIn } from '../../test/fuzz/spanish';
import { hostileData, hostileFields, hostileFrames, unknownEvents } from '../../test/fuzz/socket-payloads';

/**
 * The websockets' fuzz test (issue 24: one `null` frame used to end the process). Both sockets, the
 * app's and the video room's, get every frame kind with hostile data, unknown event names and frames
 * that are not frames, before and after authenticating (joining). Each bad frame gets one refusal
 * `{event: 'error', data: {code, message}}` with the catalogue's Spanish message, in order, and the
 * socket stays usable; too big or not UTF-8 at all, ws closes it (1009, 1007). Afterwards the process
 * still serves, and a socket another user authenticated beforehand still receives what is published to it.
 */
type Socket = Awaited<ReturnType<typeof connectSocket>>;
type Case = { label: string; frame: string | Buffer; binary?: boolean; code: string };

const APP_EVENTS = ['authenticate', 'ping', 'pong', 'chat-typing'];
const MEET_EVENTS = ['join', 'admit', 'signal', 'leave', 'ping', 'pong'];
const frameOf = (event: unknown, data: unknown) => JSON.stringify({ event, data });

/** Every kind × every hostile value (and its own wrong fields), unknown names, non-frames, binary. */
function cases(events: string[], sizeCode: string): Case[] {
  const out: Case[] = [];
  for (const event of events)
    for (const data of [...hostileData, ...(hostileFields[event] ?? [])])
      out.push({ label: `${event} ${JSON.stringify(data).slice(0, 40)}`, frame: frameOf(event, data), code: 'socket_frame_invalid' });
  for (const event of unknownEvents)
    for (const data of [undefined, null, {}, 'x'])
      out.push({ label: `unknown ${event.slice(0, 20)}`, frame: frameOf(event, data), code: 'socket_event_unknown' });
  for (const f of hostileFrames) out.push({ label: f.label, frame: f.text, code: f.size ? sizeCode : 'socket_frame_invalid' });
  for (const bytes of [Buffer.from('{"event":"ping"}'), Buffer.from([0xff, 0xfe, 0x00, 0x01]), Buffer.alloc(0)])
    out.push({ label: 'binary', frame: bytes, binary: true, code: 'socket_frame_binary' });
  return out;
}

/** Sends every case, then a ping: once its pong is back, each case has had its answer, in order. */
async function expectRefused(ws: Socket, list: Case[]) {
  for (const c of list) ws.raw(c.frame, { binary: c.binary });
  ws.send('ping');
  await ws.next('pong', 20_000);
  const got = ws.taken('error').map((f) => f.data as { code: string; message: string });
  expect(got.map((g, i) => `${list[i]!.label}: ${g.code}`)).toEqual(list.map((c) => `${c.label}: ${c.code}`));
  for (const g of got) {
    expect(Object.keys(g).sort()).toEqual(['code', 'message']);
    expect(g.message).toBe(errorMessage(g.code));
    expect(englishIn(g.message)).toBeUndefined();
  }
}

/** A socket closed by ws itself (frame over 64 KiB, text that is not UTF-8): closed, and nothing else broke. */
async function expectClosedBy(base: string, path: string, frame: Buffer | string, code: number) {
  const ws = await connectSocket(base, path);
  ws.raw(frame);
  expect((await ws.closedWith())?.code).toBe(code);
}

let t: TestApp;
let base: string;
const lots = 1_000_000; // the flood rule has its own tests; here every bad frame must get its refusal
beforeAll(async () => {
  t = await createTestApp({}, { realtime: { invalidFrameLimit: lots }, meet: { invalidFrameLimit: lots } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t?.close());

describe('the app socket under hostile frames', () => {
  it("refuses each bad frame in Spanish, unauthenticated and authenticated; the process and another user's socket carry on", async () => {
    const fuzzer = await signUpConfirmed(t, 'fuzz-socket@example.com', 'Fuzz');
    const other = await signUpConfirmed(t, 'bystander@example.com', 'Testigo');
    const bystander = await connectSocket(base);
    bystander.send('authenticate', { token: other.accessToken, realm: 'therapists' });
    await bystander.next('authenticated');

    const ws = await connectSocket(base);
    const list = cases(APP_EVENTS, 'socket_frame_too_large');
    expect(list.length).toBeGreaterThan(APP_EVENTS.length * 30);
    // Before authenticating, a well-formed client event is refused too.
    await expectRefused(ws, [
      ...list,
      {
        label: 'typing before authenticating',
        frame: frameOf('chat-typing', { patientFileId: randomUUID() }),
        code: 'socket_not_authenticated',
      },
    ]);
    ws.send('authenticate', { token: fuzzer.accessToken, realm: 'therapists' });
    await ws.next('authenticated');
    await expectRefused(ws, list);

    await expectClosedBy(base, '/api/v1/notifications', Buffer.alloc(1024 * 1024, 'x'), 1009);
    await expectClosedBy(base, '/api/v1/notifications', Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), 1007);

    // Still authenticated and served, and so is the other user's socket opened before all this.
    await t.patch('/api/v1/me', { lastName: 'Sigue' }, { token: fuzzer.accessToken });
    expect((await ws.next('profile-updated')).data).toMatchObject({ lastName: 'Sigue' });
    await t.patch('/api/v1/me', { lastName: 'Presente' }, { token: other.accessToken });
    expect((await bystander.next('profile-updated')).data).toMatchObject({ lastName: 'Presente' });
    expect((await t.get('/api/v1/health')).statusCode).toBe(200);
    ws.close();
    bystander.close();
  });
});

describe('the video room socket under hostile frames', () => {
  const enter = async (room: string, role: MeetRole) => {
    const ws = await connectSocket(base, MEET_SOCKET_PATH);
    ws.send('join', { ticket: t.app.services.meet.tokens.signTicket({ sessionId: room, role }), clientId: `pagina-${randomUUID()}` });
    await ws.next('room');
    return ws;
  };

  it('refuses each bad frame in Spanish, before and after joining; another room keeps its call', async () => {
    const room = randomUUID();
    const therapist = await enter(room, 'therapist');
    const patient = await enter(room, 'patient');
    therapist.send('admit');
    await therapist.next('peer-ready');

    const ws = await connectSocket(base, MEET_SOCKET_PATH);
    const list = cases(MEET_EVENTS, 'socket_frame_invalid');
    expect(list.length).toBeGreaterThan(MEET_EVENTS.length * 30);
    const early = ['admit', 'leave'].map((event) => ({
      label: `${event} before joining`,
      frame: frameOf(event, undefined),
      code: 'socket_not_authenticated',
    }));
    early.push({ label: 'signal before joining', frame: frameOf('signal', { restart: true }), code: 'socket_not_authenticated' });
    await expectRefused(ws, [...list, ...early]);
    ws.send('join', {
      ticket: t.app.services.meet.tokens.signTicket({ sessionId: randomUUID(), role: 'therapist' }),
      clientId: `pagina-${randomUUID()}`,
    });
    await ws.next('room');
    await expectRefused(ws, list);

    await expectClosedBy(base, MEET_SOCKET_PATH, Buffer.alloc(1024 * 1024, 'x'), 1009);
    await expectClosedBy(base, MEET_SOCKET_PATH, Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), 1007);

    const offer = { description: { type: 'offer', sdp: 'v=0 oferta' } };
    therapist.send('signal', offer);
    expect((await patient.next('signal')).data).toEqual(offer);
    ws.close();
    therapist.close();
    patient.close();
  });
});
