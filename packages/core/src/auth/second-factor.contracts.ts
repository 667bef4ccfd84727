import { z } from 'zod';
import { msg } from '../messages';
import { textField } from '../fields';
import { deviceInfo } from './auth.contracts';

/** How long a second-factor check counts for a sensitive action (step-up, issue 32). */
export const STEP_UP_WINDOW_MS = 10 * 60_000;
/** Recovery codes given at enrolment and on each regeneration. */
export const RECOVERY_CODE_COUNT = 10;

/** A code from the authenticator app: 6 digits (spaces the app shows are dropped). */
export const totpCodeField = textField('código', { error: msg.required('código') })
  .transform((s) => s.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, { error: 'El código tiene 6 dígitos' }));

/** A recovery code (`abcde-12345`), without regard to case, spaces or the hyphen. */
export const recoveryCodeField = textField('código de recuperación', { error: msg.required('código de recuperación') })
  .transform((s) => s.replace(/[\s-]+/g, '').toLowerCase())
  .pipe(z.string().regex(/^[a-z0-9]{10}$/, { error: 'El código de recuperación tiene 10 caracteres' }));

const oneFactor = (b: { code?: string; recoveryCode?: string }) => !!b.code !== !!b.recoveryCode;
const oneFactorError = { error: 'Escribe el código de tu app o un código de recuperación', path: ['code'] };

/**
 * Step-up: the app's code or a recovery code, one of them; an account without an app answers the `challenge` of
 * `/second-factor/step-up/email` with the mailed code.
 */
export const secondFactorBody = z
  .object({
    code: totpCodeField.optional(),
    recoveryCode: recoveryCodeField.optional(),
    challenge: z.uuid({ error: 'El código o el enlace no es válido o ya se ha usado.' }).optional(),
  })
  .refine(oneFactor, oneFactorError);
export type SecondFactorBody = z.infer<typeof secondFactorBody>;

export const totpEnrolmentResponse = z.object({
  /** The base32 key to type into the app by hand. */
  secret: z.string(),
  /** `otpauth://totp/Diván:…` */
  uri: z.string(),
  /** The URI as a QR code (`data:image/png;base64,…`). */
  qrDataUrl: z.string(),
});
export type TotpEnrolment = z.infer<typeof totpEnrolmentResponse>;

export const confirmTotpBody = z.object({ code: totpCodeField });
export const recoveryCodesResponse = z.object({ recoveryCodes: z.array(z.string()).length(RECOVERY_CODE_COUNT) });
export type RecoveryCodes = z.infer<typeof recoveryCodesResponse>;

export const secondFactorStatusResponse = z.object({
  totp: z.boolean(),
  totpEnabledAt: z.iso.datetime().nullable(),
  recoveryCodesLeft: z.number().int(),
  /** How many passkeys the person has registered: a passkey is a second factor too. */
  passkeys: z.number().int(),
  /** A workspace of the person requires a second factor and they have none: they must enrol. */
  enrolmentRequired: z.boolean(),
  /** When the session last proved a second factor (sign-in or step-up). */
  verifiedAt: z.iso.datetime(),
});
export type SecondFactorStatus = z.infer<typeof secondFactorStatusResponse>;

/** Signing in: after the password, a TOTP account answers its challenge with the app's code or a recovery code. */
export const loginSecondFactorBody = deviceInfo
  .extend({
    challenge: textField('desafío', { error: msg.required('desafío') })
      .min(1, { error: msg.required('desafío') })
      .max(200, { error: msg.maxLength(200) }),
    code: totpCodeField.optional(),
    recoveryCode: recoveryCodeField.optional(),
  })
  .refine(oneFactor, oneFactorError);
export type LoginSecondFactorBody = z.infer<typeof loginSecondFactorBody>;

export const secondFactorPolicyBody = z.object({ required: z.boolean({ error: msg.invalid('Segundo factor obligatorio') }) });
export const secondFactorPolicyResponse = z.object({
  required: z.boolean(),
  changedAt: z.iso.datetime().nullable(),
  /** Members without an authenticator app or a passkey (the owner's view). */
  membersWithout: z.array(z.object({ userId: z.uuid(), name: z.string(), email: z.string() })),
});
export type SecondFactorPolicy = z.infer<typeof secondFactorPolicyResponse>;
