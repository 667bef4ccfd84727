import { z } from 'zod';
import { linkToken } from '../fields';
import { emailField } from '../auth/auth.contracts';

/**
 * The patient's own account (realm `patients`) and its connection to patient files (spec §2 "connect"):
 * the therapist invites by email, the patient signs in with a mailed code and the file is connected.
 */
export const patientLoginChallengeBody = z.object({ email: emailField });

export const patientProfile = z.object({ id: z.uuid(), email: z.string(), firstName: z.string() });
export const patientAuthTokensResponse = z.object({
  accountId: z.uuid(),
  accessToken: z.string(),
  refreshToken: z.string(),
  profile: patientProfile,
});
export type PatientAuthTokens = z.infer<typeof patientAuthTokensResponse>;

export const patientConnectInviteBody = z.object({ email: emailField });
export const patientConnectStatus = z.discriminatedUnion('status', [
  z.object({ status: z.literal('not_invited') }),
  z.object({ status: z.literal('invited'), email: z.string(), invitedAt: z.iso.datetime() }),
  z.object({ status: z.literal('connected'), email: z.string(), connectedAt: z.iso.datetime() }),
]);
export type PatientConnectStatus = z.infer<typeof patientConnectStatus>;

/** The token of a connect link (`/p/connect/<token>`). */
export const patientConnectToken = linkToken();
export const patientConnectTokenParams = z.object({ token: patientConnectToken });
export const patientConnectBody = z.object({ token: patientConnectToken });

/** What a connect link is, shown before the patient proves the email: the email itself only masked. */
export const patientConnectInvitation = z.object({
  workspaceName: z.string(),
  therapistName: z.string().nullable(),
  maskedEmail: z.string(),
});

export const patientFile = z.object({
  patientFileId: z.uuid(),
  workspaceId: z.uuid(),
  workspaceName: z.string(),
  therapistNames: z.array(z.string()),
  patientName: z.string(),
  connectedAt: z.iso.datetime(),
});
export type PatientFile = z.infer<typeof patientFile>;
export const patientFilesResponse = z.object({ items: z.array(patientFile) });
export const patientFileParams = z.object({ patientFileId: z.uuid({ error: 'Ficha inválida' }) });
export const patientConnectedResponse = z.object({ file: patientFile });
export const patientConnectedWithTokensResponse = patientAuthTokensResponse.extend({ file: patientFile });
