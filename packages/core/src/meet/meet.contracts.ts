import { z } from 'zod';
import { linkId } from '../fields';
import { msg } from '../messages';

const iceServer = z.object({
  urls: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
  username: z.string().optional(),
  credential: z.string().optional(),
});

/** ICE_SERVERS: a JSON list of STUN/TURN servers, e.g. `[{"urls":"turn:turn.example.org:3478","username":"u","credential":"p"}]`. */
export const iceServersSchema = z.array(iceServer).max(10);

/** `ICE_SERVERS` as given: the list, or a one-line reason it is not one. */
export function parseIceServers(
  raw: string | undefined,
): { ok: true; value: z.infer<typeof iceServersSchema> } | { ok: false; reason: string } {
  if (raw === undefined || raw.trim() === '') return { ok: true, value: [] };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, reason: 'must be a JSON list of {urls, username?, credential?}' };
  }
  const parsed = iceServersSchema.safeParse(json);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, reason: 'must be a JSON list of {urls, username?, credential?}' };
}

/** The patient's link: a session id that leads nowhere is a link not valid (404), like any unknown link. */
export const meetSessionParams = z.object({ sessionId: linkId() });
export const meetWorkspaceParams = z.object({ workspaceId: z.uuid(), sessionId: z.uuid({ error: msg.invalid('Sesión') }) });
/** The patient proves the link: the `t` of `/meet/:sessionId?t=…`. */
export const meetPatientJoinBody = z.object({ t: z.string().min(1).max(200) });

/** What the page needs to enter the room: a ticket for the socket, the ICE servers, the session's time and names. */
export const meetJoinResponse = z.object({
  ticket: z.string(),
  role: z.enum(['therapist', 'patient']),
  iceServers: iceServersSchema,
  session: z.object({
    id: z.uuid(),
    startsAt: z.string(),
    endsAt: z.string(),
    timeZone: z.string(),
    therapistName: z.string(),
    /** For the therapist only ("Ana espera para entrar"). */
    patientName: z.string().optional(),
  }),
  /** For the therapist only: the patient's link, to send by hand if needed. */
  patientLink: z.string().optional(),
});
export type MeetJoin = z.infer<typeof meetJoinResponse>;
