import { z } from 'zod';
import { bareFrame, dataFrame, type FrameContract, type FrameOf } from '../realtime-frames';

/** The longest session description a peer may relay (a real one is a few KB; the socket takes 64 KiB). */
export const MEET_SDP_MAX_CHARS = 50_000;
/** The video room's socket takes frames up to this (its longest, an offer): beyond it ws closes the socket. */
export const MEET_FRAME_MAX_BYTES = 64 * 1024;

const callId = z.string().max(64).optional();

/**
 * What one peer relays to the other: a session description (offer/answer), an ICE candidate, or the
 * patient asking the therapist for a new offer (its connection failed). `callId` names the therapist's
 * peer connection it belongs to: every (re)connection is a new call, and late candidates of an old one are dropped.
 */
export const meetSignal = z.union([
  z.strictObject({ callId, description: z.strictObject({ type: z.enum(['offer', 'answer']), sdp: z.string().max(MEET_SDP_MAX_CHARS) }) }),
  z.strictObject({
    callId,
    candidate: z
      .strictObject({
        candidate: z.string().max(4096),
        sdpMid: z.string().max(256).nullable().optional(),
        sdpMLineIndex: z.number().int().min(0).max(65_535).nullable().optional(),
        usernameFragment: z.string().max(256).nullable().optional(),
      })
      .nullable(),
  }),
  z.strictObject({ callId, restart: z.literal(true) }),
]);
export type MeetSignal = z.infer<typeof meetSignal>;

/** The page enters with the ticket of the HTTP join and its own id (kept across its reconnections). */
export const meetJoinData = z.strictObject({ ticket: z.string().min(1).max(2048), clientId: z.string().regex(/^[\w-]{8,64}$/) });

/** Frames the page sends on the room's socket (`{event, data}` JSON, as the app's socket). */
export const meetClientFrames = {
  join: dataFrame('join', meetJoinData),
  admit: bareFrame('admit'),
  signal: dataFrame('signal', meetSignal),
  leave: bareFrame('leave'),
  ping: bareFrame('ping'),
  pong: bareFrame('pong'),
} as const satisfies FrameContract;
export type MeetClientFrame = FrameOf<typeof meetClientFrames>;
