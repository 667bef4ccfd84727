import { retryMayHelp } from '@divan/core';

type Failure = { code: string; status: number } | null | undefined;
type Invitation = { email: string; status: 'pending' | 'accepted' | 'canceled' };

/**
 * Which screen the invitation link shows. A link that is broken (a bad or unknown id: 400 or 404) is
 * said in plain words with the way home; only a failure that may pass (no network, the server's fault)
 * offers «Reintentar».
 */
export type InvitationScreen = 'gone' | 'broken' | 'retry' | 'accepted' | 'other-account' | 'invite';

export function invitationScreen({
  read,
  accept,
  invitation,
  myEmail,
}: {
  read: Failure;
  accept: Failure;
  invitation: Invitation | undefined;
  myEmail: string;
}): InvitationScreen {
  const code = (read ?? accept)?.code;
  if (code === 'invitation_not_found' || invitation?.status === 'canceled') return 'gone';
  if (read || !invitation) return read && !retryMayHelp(read.status) ? 'broken' : 'retry';
  if (invitation.status === 'accepted' || code === 'invitation_already_accepted') return 'accepted';
  if (invitation.email.trim().toLowerCase() !== myEmail.trim().toLowerCase() || code === 'invitation_email_mismatch')
    return 'other-account';
  return 'invite';
}
