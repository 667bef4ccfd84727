import type { AuthTokens } from '@divan/core';
import { useAction } from '@/lib/use-action';
import { useAuthStore } from '@/stores/auth-store';
import { authApi } from './auth-api';

// Auth calls are one-shot actions, never cached: they use useAction rather than TanStack Query so the
// signed-out pages don't download the query library (see apps/web/docs/bundle-budget.md).

/** Every way into the app ends the same: tokens and profile stored, so the guards let the user in. */
const storeSession = (tokens: AuthTokens) => useAuthStore.getState().setSession(tokens);

export const useRequestLoginCode = () => useAction(authApi.requestLoginCode);

export const useLogin = () => useAction(authApi.login, { onSuccess: storeSession });

export const useLoginSecondFactor = () => useAction(authApi.loginSecondFactor, { onSuccess: storeSession });

export const usePasskeySignIn = () => useAction(authApi.passkeySignIn, { onSuccess: storeSession });

export const usePasskeySecondStep = () => useAction(authApi.passkeySecondStep, { onSuccess: storeSession });

export const useSignUp = () => useAction(authApi.signUp);

export const useResendConfirmation = () => useAction(authApi.resendConfirmation);

export const useConfirmEmail = () => useAction(authApi.confirmEmail, { onSuccess: storeSession });

export const useRequestPasswordReset = () => useAction(authApi.requestPasswordReset);

export const useResetPassword = () =>
  useAction(authApi.resetPassword, { onSuccess: (r) => ('accessToken' in r ? storeSession(r) : undefined) });
