import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { meetClientFrames } from './meet/meet-frames';
import { parseSocketFrame, realtimeClientFrames } from './realtime-frames';

const ok = (contract: Parameters<typeof parseSocketFrame>[0], frame: unknown) => parseSocketFrame(contract, JSON.stringify(frame));

describe('parseSocketFrame', () => {
  it('takes the frames the clients send, typed', () => {
    expect(ok(realtimeClientFrames, { event: 'authenticate', data: { token: 'a.b.c', realm: 'patients' } })).toEqual({
      ok: true,
      frame: { event: 'authenticate', data: { token: 'a.b.c', realm: 'patients' } },
    });
    expect(ok(realtimeClientFrames, { event: 'ping' })).toEqual({ ok: true, frame: { event: 'ping' } });
    expect(ok(realtimeClientFrames, { event: 'chat-typing', data: { patientFileId: '6f1c2d3e-4b5a-4c6d-8e7f-1a2b3c4d5e6f' } }).ok).toBe(
      true,
    );
    const candidate = {
      callId: 'c1',
      candidate: { candidate: 'candidate:1 1 udp 1 127.0.0.1 5000 typ host', sdpMid: '0', sdpMLineIndex: 0, usernameFragment: null },
    };
    for (const data of [{ description: { type: 'offer', sdp: 'v=0' } }, candidate, { candidate: null }, { restart: true }])
      expect(ok(meetClientFrames, { event: 'signal', data })).toEqual({ ok: true, frame: { event: 'signal', data } });
    expect(ok(meetClientFrames, { event: 'join', data: { ticket: 't.s', clientId: 'pagina-1234' } }).ok).toBe(true);
  });

  it('tells an unknown event from a bad frame, inherited names included', () => {
    for (const event of ['nope', 'constructor', '__proto__', 'toString', 'authenticated'])
      expect(ok(realtimeClientFrames, { event })).toEqual({ ok: false, code: 'socket_event_unknown' });
    for (const text of [
      'null',
      '0',
      '[]',
      '"ping"',
      '{}',
      '{"event":1}',
      '{"event":"ping","data":null}',
      '{"event":"ping","x":1}',
      'nope',
      '['.repeat(100_000),
    ])
      expect(parseSocketFrame(realtimeClientFrames, text)).toEqual({ ok: false, code: 'socket_frame_invalid' });
  });

  it('never throws and never takes a frame outside the contract, whatever the text or JSON', () => {
    const events = [...Object.keys(realtimeClientFrames), ...Object.keys(meetClientFrames), 'x', '__proto__'];
    const frameish = fc.record({ event: fc.oneof(fc.constantFrom(...events), fc.jsonValue()), data: fc.jsonValue() }, { requiredKeys: [] });
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          frameish.map((f) => JSON.stringify(f)),
        ),
        (text) => {
          for (const contract of [realtimeClientFrames, meetClientFrames]) {
            const r = parseSocketFrame(contract, text);
            if (r.ok) expect(contract[r.frame.event as keyof typeof contract].safeParse(JSON.parse(text)).success).toBe(true);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});
