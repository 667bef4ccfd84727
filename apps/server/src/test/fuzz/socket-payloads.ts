/**
 * Hostile input for the websockets' fuzz test (platform/realtime/realtime-fuzz.test.ts): values to put
 * where a frame's `data` goes, wrong types for each field of the frames that carry data, and whole
 * frames that are not frames at all. None of them is a frame the server may act on.
 */

const nestedArrays = (depth: number): unknown => JSON.parse('['.repeat(depth) + ']'.repeat(depth));
const nestedObjects = (depth: number): unknown => JSON.parse('{"a":'.repeat(depth) + '1' + '}'.repeat(depth));
/** JSON.parse keeps `__proto__` as an own key (an object literal would set the prototype instead). */
const protoKey = (inner: string) => JSON.parse(`{"__proto__":${inner}}`) as unknown;

/** At least 30 values that are never valid `data` of any frame. */
export const hostileData: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1e308,
  -0,
  0.5,
  'NaN',
  'Infinity',
  '',
  ' ',
  'x'.repeat(10_000),
  '\u0000',
  '\ud800',
  '🙂'.repeat(50),
  "'; DROP TABLE users; --",
  '<script>alert(1)</script>',
  '{"event":"ping"}',
  [],
  [[]],
  [1, 2, 3],
  nestedArrays(1000),
  nestedObjects(500),
  {},
  protoKey('{"token":"x","realm":"therapists"}'),
  protoKey('{"polluted":true}'),
  { constructor: { prototype: { polluted: true } } },
  { toString: 1, valueOf: 'x', hasOwnProperty: null },
  Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, i])),
  { token: 1 },
  { patientFileId: 1 },
  { patientFileId: 'no-es-un-uuid' },
  { ticket: null, clientId: null },
  { description: null },
  { candidate: 5 },
  { restart: false },
  '2024-05-10T10:00:00Z',
];

const uuid = '6f1c2d3e-4b5a-4c6d-8e7f-1a2b3c4d5e6f';
const sdp = 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\n';

/** Wrong types, missing and extra fields, out-of-range values: field by field, for the frames with data. */
export const hostileFields: Readonly<Record<string, readonly unknown[]>> = {
  authenticate: [
    { token: 42, realm: 'therapists' },
    { token: '', realm: 'therapists' },
    { token: 'x'.repeat(5000), realm: 'therapists' },
    { token: null, realm: 'patients' },
    { token: ['a'], realm: 'therapists' },
    { token: { a: 1 }, realm: 'therapists' },
    { token: 'abc', realm: 'admins' },
    { token: 'abc', realm: null },
    { token: 'abc', realm: ['therapists'] },
    { token: 'abc' },
    { realm: 'therapists' },
    { token: 'abc', realm: 'therapists', extra: true },
    { token: 'abc', realm: 'Therapists' },
  ],
  'chat-typing': [
    { patientFileId: null },
    { patientFileId: 123 },
    { patientFileId: uuid.toUpperCase().replace(/-/g, '') },
    { patientFileId: `${uuid}x` },
    { patientFileId: [uuid] },
    { patientFileId: { id: uuid } },
    { patientFileId: uuid, extra: 1 },
    { patientFileID: uuid },
  ],
  join: [
    { ticket: 42, clientId: 'pagina-1234' },
    { ticket: '', clientId: 'pagina-1234' },
    { ticket: 'x'.repeat(3000), clientId: 'pagina-1234' },
    { ticket: 'abc.def', clientId: 'corto' },
    { ticket: 'abc.def', clientId: 'con espacios y más' },
    { ticket: 'abc.def', clientId: 'x'.repeat(65) },
    { ticket: 'abc.def', clientId: 12345678 },
    { ticket: 'abc.def' },
    { clientId: 'pagina-1234' },
    { ticket: 'abc.def', clientId: 'pagina-1234', role: 'therapist' },
  ],
  signal: [
    { description: { type: 'pranswer', sdp } },
    { description: { type: 'offer', sdp: 42 } },
    { description: { type: 'offer' } },
    { description: { type: 'offer', sdp: 'x'.repeat(60_001) } },
    { description: { type: 'offer', sdp, extra: 1 } },
    { description: 'offer' },
    { candidate: { candidate: 42 } },
    { candidate: { candidate: 'candidate:1', sdpMLineIndex: -1 } },
    { candidate: { candidate: 'candidate:1', sdpMLineIndex: 'cero' } },
    { candidate: { candidate: 'candidate:1', sdpMid: 7 } },
    { candidate: 'candidate:1' },
    { candidate: [] },
    { restart: 'true' },
    { restart: true, callId: 'x'.repeat(65) },
    { restart: true, callId: 7 },
    { description: { type: 'offer', sdp }, candidate: null },
    { restart: true, extra: 1 },
  ],
};

/**
 * Event names no socket knows: made-up ones, the server's own events, the names an object inherits,
 * other cases, a huge one. (Names of the wrong type are in `hostileFrames`.)
 */
export const unknownEvents: readonly string[] = [
  'unknown',
  '',
  ' ping',
  'PING',
  'Authenticate',
  'authenticated',
  'disconnect',
  'profile-updated',
  'error',
  'constructor',
  '__proto__',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '\u0000',
  '\ud800',
  'x'.repeat(5000),
];

/** Whole frames that are not `{event, data}` JSON (`size`: an invalid one past the app socket's bound). */
export const hostileFrames: readonly { label: string; text: string; size?: true }[] = [
  ...['null', 'true', 'false', '0', '-1', '1e308', '"ping"', '""', '[]', '[{"event":"ping"}]', '{}', '{"data":{}}'].map((text) => ({
    label: text,
    text,
  })),
  ...['NaN', 'Infinity', 'undefined', '', ' ', '{', '{"event":"ping"', "{'event':'ping'}", '\uFEFF{"event":"ping"}', 'ping'].map(
    (text) => ({ label: `not JSON: ${JSON.stringify(text)}`, text }),
  ),
  { label: 'nested arrays 1000 deep', text: '['.repeat(1000) + ']'.repeat(1000) },
  { label: 'nested arrays 5000 deep', text: '['.repeat(5000) + ']'.repeat(5000) },
  { label: '__proto__ event', text: '{"__proto__":{"event":"ping"}}' },
  { label: 'constructor event', text: '{"constructor":{"prototype":{"event":"ping"}}}' },
  { label: 'event null', text: '{"event":null}' },
  { label: 'event number', text: '{"event":1}' },
  { label: 'event array', text: '{"event":["ping"]}' },
  { label: 'event object', text: '{"event":{"name":"ping"}}' },
  { label: 'extra top-level field', text: '{"event":"ping","extra":1}' },
  { label: 'ping with data', text: '{"event":"ping","data":null}' },
  { label: 'pong with data', text: '{"event":"pong","data":{}}' },
  { label: 'a 20 KB frame', text: JSON.stringify({ event: 'ping', data: 'x'.repeat(20_000) }), size: true },
  { label: 'a 60 KB frame of garbage', text: 'x'.repeat(60_000), size: true },
];
