import type { AuthTokens, ChangePasswordBody, LoginCodeBody, SignUpBody } from '@divan/core';
import { api } from '@/lib/api-client';
import { deviceInfo } from '@/lib/device-info';

const realm = '/realms/therapists';

export type LoginChallenge = { challenge: string; expiresAt: string };

export const authApi = {
  requestLoginCode: (body: LoginCodeBody) =>
    api<LoginChallenge>(`${realm}/code`, { method: 'POST', body, auth: 'none' }),
  login: (body: { challenge: string; code: string }) =>
    api<AuthTokens>(`${realm}/login`, { method: 'POST', body: { ...body, ...deviceInfo }, auth: 'none' }),
  signUp: (body: SignUpBody) => api<{ userId: string }>(`${realm}/users`, { method: 'POST', body, auth: 'none' }),
  resendConfirmation: (email: string) =>
    api<void>(`${realm}/signup/challenge`, { query: { email }, auth: 'none' }),
  confirmEmail: (code: string) =>
    api<AuthTokens>(`${realm}/signup/challenge`, { method: 'POST', body: { code, ...deviceInfo }, auth: 'none' }),
  requestPasswordReset: (email: string) =>
    api<void>(`${realm}/password/challenge`, { query: { email }, auth: 'none' }),
  resetPassword: (body: { code: string; password: string }) =>
    api<AuthTokens>(`${realm}/password/challenge`, { method: 'POST', body: { ...body, ...deviceInfo }, auth: 'none' }),
  changePassword: (body: ChangePasswordBody) =>
    api<void>(`${realm}/password`, { method: 'POST', body, auth: 'refresh' }),
  signOut: () => api<void>(`${realm}/sessions`, { method: 'DELETE', auth: 'refresh' }),
};
