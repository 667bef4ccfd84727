import { z } from 'zod';
import { msg } from '../messages';
import { linkToken, personNameField, textField } from '../fields';
import { USER_AGENT_MAX } from '../constants';
import { isStrongPassword, PASSWORD_MAX_LENGTH } from './password-rule';
import { profileResponse } from '../profile/profile.contracts';
import { referralCodeField } from '../billing/referral.contracts';

export const emailField = textField('email', { error: msg.required('email') })
  .trim()
  .toLowerCase()
  .min(1, { error: msg.required('email') })
  .max(254, { error: msg.maxLength(254) })
  .pipe(z.email({ error: msg.invalidEmail() }));

/** A password being chosen: the spec §5 rule. */
export const newPasswordField = textField('contraseña', { error: msg.required('contraseña') })
  .max(PASSWORD_MAX_LENGTH, { error: msg.maxLength(PASSWORD_MAX_LENGTH) })
  .refine(isStrongPassword, { error: msg.passwordRule() });

/** A password being checked: anything non-empty (the rule may have changed since it was set). */
export const passwordField = textField('contraseña', { error: msg.required('contraseña') })
  .min(1, { error: msg.required('contraseña') })
  .max(PASSWORD_MAX_LENGTH, { error: msg.maxLength(PASSWORD_MAX_LENGTH) });

const unknownDefault = (label: string, max: number) =>
  textField(label)
    .trim()
    .max(max, { error: msg.maxLength(max) })
    .optional()
    .default('unknown');

/** Device info of spec §3, sent with every auth call. */
export const deviceInfo = z.object({
  appVersion: unknownDefault('Versión de la aplicación', 40),
  deviceManufacturer: unknownDefault('Fabricante del dispositivo', 100),
  deviceModel: unknownDefault('Modelo del dispositivo', 100),
  platformType: z.literal('web').optional().default('web'),
  platformVersion: unknownDefault('Versión de la plataforma', 60),
});
export type DeviceInfo = z.infer<typeof deviceInfo>;
export const userAgentOf = (ua: string | undefined) => (ua ?? 'unknown').slice(0, USER_AGENT_MAX);

export const signUpBody = z.object({
  firstName: personNameField('nombre', 100),
  email: emailField,
  // The rule is checked by the server to answer `password_conditions`; forms use `newPasswordField`.
  password: passwordField,
  /** A colleague's invitation code (`/sign-up?ref=CODE`): 30 more days of trial. Empty: none. */
  referralCode: z
    .literal('')
    .transform(() => null)
    .or(referralCodeField)
    .nullable()
    .optional(),
});
export const signUpForm = signUpBody
  .extend({ password: newPasswordField, repeatPassword: z.string() })
  .refine((b) => b.password === b.repeatPassword, { error: msg.passwordsMismatch(), path: ['repeatPassword'] });
export const signUpResponse = z.object({ userId: z.uuid() });

export const emailQuery = z.object({ email: emailField });

/** The token of a sign-up or reset link: garbage is a link not found (`challenge_not_found`), like a used one. */
export const tokenChallengeBody = deviceInfo.extend({
  code: linkToken(),
});

export const passwordResetBody = tokenChallengeBody.extend({ password: passwordField });
export const passwordResetForm = z
  .object({ password: newPasswordField, repeatPassword: z.string() })
  .refine((b) => b.password === b.repeatPassword, { error: msg.passwordsMismatch(), path: ['repeatPassword'] });

export const loginCodeBody = z.object({ email: emailField, password: passwordField });
export const loginChallengeResponse = z.object({ challenge: z.string(), expiresAt: z.iso.datetime() });
/**
 * A therapist's sign-in after the password: `email`, a mailed code answered at `/login`; `totp`, an account with an
 * authenticator app, answered with its code or a recovery code at `/second-factor/login` (issue 32); `passkey`, an
 * account whose only second factor is a passkey. `passkey: true`: a passkey may answer it
 * (`/second-factor/login/passkey`) instead.
 */
export const therapistLoginChallengeResponse = loginChallengeResponse.extend({
  method: z.enum(['email', 'totp', 'passkey']),
  passkey: z.boolean().optional(),
});
export type TherapistLoginChallenge = z.infer<typeof therapistLoginChallengeResponse>;

export const loginBody = deviceInfo.extend({
  challenge: textField('challenge', { error: msg.required('challenge') })
    .min(1, { error: msg.required('challenge') })
    .max(200, { error: msg.maxLength(200) }),
  code: textField('código', { error: msg.required('código') })
    .trim()
    .regex(/^\d{6}$/, { error: 'El código tiene 6 dígitos' }),
});

export const authTokensResponse = z.object({
  userId: z.uuid(),
  accessToken: z.string(),
  refreshToken: z.string(),
  profile: profileResponse,
});
export type AuthTokens = z.infer<typeof authTokensResponse>;

export const refreshResponse = z.object({ accessToken: z.string(), refreshToken: z.string().optional() });

export const changePasswordBody = z.object({ currentPassword: passwordField, newPassword: passwordField });
export const changePasswordForm = z
  .object({ currentPassword: passwordField, newPassword: newPasswordField, repeatPassword: z.string() })
  .refine((b) => b.currentPassword !== b.newPassword, { error: msg.passwordEqual(), path: ['newPassword'] })
  .refine((b) => b.newPassword === b.repeatPassword, { error: msg.passwordsMismatch(), path: ['repeatPassword'] });

export type SignUpBody = z.infer<typeof signUpBody>;
export type LoginCodeBody = z.infer<typeof loginCodeBody>;
export type LoginBody = z.infer<typeof loginBody>;
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;
