import { z } from 'zod';
import { CHAT_TYPING_EVENT } from './chat/chat.constants';
import { errorMessage } from './errors';
import type { SocketRefusal, SocketRefusalCode } from './realtime';

/**
 * The frames a client may send on a websocket, as Zod contracts: one schema per event, the whole frame
 * strict (`{event}` or `{event, data}`, nothing else), the server parsing every frame with
 * `parseSocketFrame` before acting on it. Zod stays out of the web shell: it imports the types only.
 */
export type FrameContract = Readonly<Record<string, z.ZodType<{ event: string }>>>;
export type FrameOf<C extends FrameContract> = z.infer<C[keyof C]>;
export type ParsedFrame<F> =
  { ok: true; frame: F } | { ok: false; code: Extract<SocketRefusalCode, 'socket_frame_invalid' | 'socket_event_unknown'> };

/** A frame without data: `{event}`. */
export const bareFrame = <E extends string>(event: E) => z.strictObject({ event: z.literal(event) });
/** A frame with its data: `{event, data}`. */
export const dataFrame = <E extends string, D extends z.ZodType>(event: E, data: D) => z.strictObject({ event: z.literal(event), data });

/** The app socket's `authenticate`: an access token of either realm (therapists or patients). */
export const authenticateData = z.strictObject({ token: z.string().min(1).max(4096), realm: z.enum(['therapists', 'patients']) });
/** The chat's typing notice: which conversation (the patient's file). */
export const chatTypingData = z.strictObject({ patientFileId: z.uuid() });

/** What a client sends on REALTIME_PATH. */
export const realtimeClientFrames = {
  authenticate: dataFrame('authenticate', authenticateData),
  ping: bareFrame('ping'),
  pong: bareFrame('pong'),
  [CHAT_TYPING_EVENT]: dataFrame(CHAT_TYPING_EVENT, chatTypingData),
} as const satisfies FrameContract;
export type RealtimeClientFrame = FrameOf<typeof realtimeClientFrames>;
export type RealtimeInEvent = RealtimeClientFrame['event'];

/**
 * One text frame against a socket's contract: the typed frame, or why it is refused (not JSON, not an
 * object with a string `event`, or not what that event takes: `socket_frame_invalid`; an event the
 * contract lacks: `socket_event_unknown`). Never throws, whatever the text.
 */
export function parseSocketFrame<C extends FrameContract>(contract: C, text: string): ParsedFrame<FrameOf<C>> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, code: 'socket_frame_invalid' }; // not JSON, or nested past the stack
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, code: 'socket_frame_invalid' };
  const event = (value as { event?: unknown }).event;
  if (typeof event !== 'string') return { ok: false, code: 'socket_frame_invalid' };
  // Own keys only: `constructor` or `__proto__` are no events of ours.
  if (!Object.prototype.hasOwnProperty.call(contract, event)) return { ok: false, code: 'socket_event_unknown' };
  const parsed = contract[event]!.safeParse(value);
  return parsed.success ? { ok: true, frame: parsed.data as FrameOf<C> } : { ok: false, code: 'socket_frame_invalid' };
}

/** The refusal's data, its message from the catalogue. */
export const socketRefusal = (code: SocketRefusal['code']): SocketRefusal => ({ code, message: errorMessage(code) });
