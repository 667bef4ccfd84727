import { describe, expect, it } from 'vitest';
import { invitationScreen } from './invitation-state';

const pending = { email: 'Ana@Example.com', status: 'pending' as const };
const base = { read: null, accept: null, invitation: pending, myEmail: 'ana@example.com ' };

describe('the invitation link', () => {
  it('calls a malformed or unknown link broken, with no «Reintentar» (the server said «invitationId inválido»)', () => {
    expect(invitationScreen({ ...base, invitation: undefined, read: { code: 'invalid_argument', status: 400 } })).toBe('broken');
    expect(invitationScreen({ ...base, invitation: undefined, read: { code: 'not_found', status: 404 } })).toBe('broken');
  });

  it('offers «Reintentar» only when asking again may work', () => {
    expect(invitationScreen({ ...base, invitation: undefined, read: { code: 'network_error', status: 0 } })).toBe('retry');
    expect(invitationScreen({ ...base, invitation: undefined, read: { code: 'unexpected_error', status: 500 } })).toBe('retry');
    expect(invitationScreen({ ...base, invitation: undefined, read: { code: 'too_many_requests', status: 429 } })).toBe('retry');
  });

  it('says a cancelled or deleted invitation is gone', () => {
    expect(invitationScreen({ ...base, invitation: undefined, read: { code: 'invitation_not_found', status: 404 } })).toBe('gone');
    expect(invitationScreen({ ...base, invitation: { ...pending, status: 'canceled' } })).toBe('gone');
  });

  it('tells an accepted one, one for another account, and the invitation to accept apart', () => {
    expect(invitationScreen({ ...base, invitation: { ...pending, status: 'accepted' } })).toBe('accepted');
    expect(invitationScreen({ ...base, accept: { code: 'invitation_already_accepted', status: 409 } })).toBe('accepted');
    expect(invitationScreen({ ...base, myEmail: 'otra@example.com' })).toBe('other-account');
    expect(invitationScreen(base)).toBe('invite');
  });
});
