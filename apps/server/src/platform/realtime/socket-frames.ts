import type { RawData, WebSocket } from 'ws';
import {
  SOCKET_INVALID_FRAME_LIMIT,
  parseSocketFrame,
  socketRefusal,
  type FrameContract,
  type FrameOf,
  type SocketRefusal,
} from '@divan/core';

export type ReadFrame<C extends FrameContract> = { ok: true; frame: FrameOf<C> } | { ok: false; code: SocketRefusal['code'] };

/**
 * One websocket message against its socket's contract (core): a text frame within `maxBytes`, parsed
 * and validated; otherwise the refusal's code. ws has already closed the socket for a frame over its
 * maxPayload (1009) or a text frame that is not UTF-8 (1007).
 */
export function readFrame<C extends FrameContract>(contract: C, raw: RawData, isBinary: boolean, maxBytes: number): ReadFrame<C> {
  if (isBinary) return { ok: false, code: 'socket_frame_binary' };
  const bytes = Buffer.isBuffer(raw) ? raw : Array.isArray(raw) ? Buffer.concat(raw) : Buffer.from(raw);
  if (bytes.length > maxBytes) return { ok: false, code: 'socket_frame_too_large' };
  return parseSocketFrame(contract, bytes.toString('utf8'));
}

export function sendFrame(socket: WebSocket, event: string, data?: unknown) {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(data === undefined ? { event } : { event, data }));
}

/** The refusal of one frame: `{event: 'error', data: {code, message}}`; the socket stays open. */
export const refuseFrame = (socket: WebSocket, code: SocketRefusal['code']) => sendFrame(socket, 'error', socketRefusal(code));

/**
 * A socket's invalid frames in the current minute: past the limit it is flooding (a broken or hostile
 * client) and its socket is closed rather than answered frame by frame.
 */
export class InvalidFrames {
  private count = 0;
  private since = Date.now();

  constructor(private readonly limit = SOCKET_INVALID_FRAME_LIMIT) {}

  /** Counts one; true when that one is over the limit. */
  add(): boolean {
    const now = Date.now();
    if (now - this.since > 60_000) {
      this.since = now;
      this.count = 0;
    }
    return ++this.count > this.limit;
  }
}
