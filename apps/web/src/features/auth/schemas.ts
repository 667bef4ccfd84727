import { z } from 'zod';
import { emailQuery, loginBody, loginCodeBody, msg, newPasswordField, passwordField, signUpBody } from '@divan/core';

// Form schemas of the auth screens, built from the shared contracts. Imported lazily (see
// lib/lazy-resolver) so the sign-in page paints before Zod arrives; import only types statically.

export const credentialsForm = loginCodeBody;

export const codeForm = z.object({ code: loginBody.shape.code });

// The invitation code is a text box like the others (empty: none); the contract turns '' into null.
export const signUpForm = signUpBody
  .extend({ repeatPassword: z.string(), referralCode: signUpBody.shape.referralCode.unwrap().unwrap() })
  .refine((v) => v.password === v.repeatPassword, { error: msg.passwordsMismatch(), path: ['repeatPassword'] });

export const forgotPasswordForm = emailQuery;

export const resetPasswordForm = z
  .object({ password: newPasswordField, repeatPassword: z.string() })
  .refine((v) => v.password === v.repeatPassword, { error: msg.passwordsMismatch(), path: ['repeatPassword'] });

/** «Crear contraseña» (an account made through a provider): the mailed code and the new password, twice. */
export const createPasswordForm = z
  .object({ code: loginBody.shape.code, newPassword: newPasswordField, repeatPassword: z.string() })
  .refine((v) => v.newPassword === v.repeatPassword, { error: msg.passwordsMismatch(), path: ['repeatPassword'] });

export const changePasswordForm = z
  .object({ currentPassword: passwordField, newPassword: newPasswordField, repeatPassword: z.string() })
  .refine((v) => v.currentPassword !== v.newPassword, { error: msg.passwordEqual(), path: ['newPassword'] })
  .refine((v) => v.newPassword === v.repeatPassword, { error: msg.passwordsMismatch(), path: ['repeatPassword'] });

export type CredentialsForm = z.infer<typeof credentialsForm>;
export type CodeForm = z.infer<typeof codeForm>;
export type SignUpForm = z.input<typeof signUpForm>;
export type ForgotPasswordForm = z.input<typeof forgotPasswordForm>;
export type ResetPasswordForm = z.infer<typeof resetPasswordForm>;
export type ChangePasswordForm = z.infer<typeof changePasswordForm>;
export type CreatePasswordForm = z.infer<typeof createPasswordForm>;
