import { z } from 'zod';
import { msg } from '../messages';
import { textField } from '../fields';
import { referralCodeField } from '../billing/referral.contracts';
import { authTokensResponse, deviceInfo, newPasswordField, therapistLoginChallengeResponse } from './auth.contracts';

/**
 * Social sign-in (spec §1, §7 `POST /realms/therapists/login/{provider}`): Google and Apple through the OpenID code flow
 * with PKCE. An identity is `(provider, subject)`, never the email.
 */
export const SOCIAL_PROVIDERS = ['google', 'apple'] as const;
export const socialProvider = z.enum(SOCIAL_PROVIDERS, { error: 'Proveedor no admitido' });
export type SocialProvider = z.infer<typeof socialProvider>;
export const SOCIAL_PROVIDER_LABELS: Record<SocialProvider, string> = { google: 'Google', apple: 'Apple' };

/** How long a started sign-in (state, PKCE verifier, nonce) waits for the provider's answer. */
export const SOCIAL_STATE_TTL_MS = 10 * 60_000;
/** How long a sign-in whose email matches an existing account waits for that account's mailed code. */
export const SOCIAL_LINK_TTL_MS = 15 * 60_000;

/** `GET /realms/therapists/login/providers`: the providers configured on this server (none: the buttons are hidden). */
export const socialProvidersResponse = z.object({ providers: z.array(socialProvider) });

/** Where the sign-in was started: the sign-in page, the sign-up page (with a colleague's code), or Ajustes › Seguridad. */
export const socialForm = z.enum(['login', 'signup'], { error: 'Formulario no válido' });
export type SocialForm = z.infer<typeof socialForm>;

/** `POST /realms/therapists/login/{provider}/authorize`: the provider's authorization URL to send the browser to. */
export const socialAuthorizeBody = z.object({
  form: socialForm,
  referralCode: z
    .literal('')
    .transform(() => null)
    .or(referralCodeField)
    .nullable()
    .optional(),
});
export const socialAuthorizeResponse = z.object({ url: z.url() });

const shortText = (label: string, max: number) =>
  textField(label, { error: msg.required(label) })
    .min(1, { error: msg.required(label) })
    .max(max, { error: msg.maxLength(max) });

/**
 * Apple's `user` form field, posted only on the first authorization: `{"name":{"firstName","lastName"},"email"}` as JSON
 * text. Anything unreadable is treated as absent (the name is then taken from the email).
 */
export const appleUserField = z.string().max(2000).optional();

/** What the provider sent back to the web app's callback page, plus device info (spec §7). */
export const socialLoginBody = deviceInfo.extend({
  code: shortText('código', 2000),
  state: shortText('estado', 200),
  user: appleUserField,
  form: socialForm,
});

/**
 * The answer of `POST /realms/therapists/login/{provider}`: signed in (the same tokens as every login), or the provider's
 * verified email belongs to an account not yet linked to this identity: that account's owner must prove it with the code
 * mailed to it (`POST …/login/{provider}/link`).
 */
/** Signed in: the same tokens as every login; `created` when this sign-in made the account. Also `…/link`'s answer. */
export const socialSignedInResponse = authTokensResponse.extend({ kind: z.literal('signed_in'), created: z.boolean() });
/** The account has a second factor (issue 32): its second step, answered as after a password (`/second-factor/login…`). */
export const socialSecondFactorResponse = therapistLoginChallengeResponse.extend({ kind: z.literal('second_factor') });
/** `…/link`'s answer: signed in, or the linked account's second step. */
export const socialLinkResponse = z.discriminatedUnion('kind', [socialSignedInResponse, socialSecondFactorResponse]);
export type SocialLinkResponse = z.infer<typeof socialLinkResponse>;
export const socialLoginResponse = z.discriminatedUnion('kind', [
  socialSignedInResponse,
  socialSecondFactorResponse,
  z.object({
    kind: z.literal('link_required'),
    link: z.uuid(),
    /** The existing account's email, as the person typed it there. */
    email: z.string(),
    provider: socialProvider,
    expiresAt: z.iso.datetime(),
  }),
]);
export type SocialLoginResponse = z.infer<typeof socialLoginResponse>;

export const socialLinkBody = deviceInfo.extend({
  link: z.uuid({ error: 'Enlace de vinculación no válido' }),
  code: textField('código', { error: msg.required('código') })
    .trim()
    .regex(/^\d{6}$/, { error: 'El código tiene 6 dígitos' }),
});

/** Ajustes › Seguridad: the identities linked to the signed-in account. */
export const identityResponse = z.object({
  id: z.uuid(),
  provider: socialProvider,
  /** The provider's email at the last sign-in (Apple may give a private relay address). */
  email: z.string().nullable(),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
});
export const identitiesResponse = z.object({
  identities: z.array(identityResponse),
  /** Without a password, the last identity cannot be unlinked (it is the only way in). */
  hasPassword: z.boolean(),
  /** Providers configured on this server. */
  providers: z.array(socialProvider),
});
/** `POST /me/identities/{provider}/authorize` (signed in): start linking another provider. */
export const identityAuthorizeResponse = socialAuthorizeResponse;
/** `POST /me/identities/{provider}`: the callback's code and state, while signed in. */
export const identityLinkBody = z.object({
  code: shortText('código', 2000),
  state: shortText('estado', 200),
  user: appleUserField,
});

/**
 * «Crear contraseña» (Ajustes › Seguridad) for an account made through a provider: `POST /me/password/code` mails the
 * account's email a code (the login code's challenge), `POST /me/password` answers it with the new password.
 */
export const createPasswordCodeResponse = z.object({ challenge: z.uuid(), expiresAt: z.iso.datetime(), email: z.string() });
export const createPasswordBody = z.object({
  challenge: z.uuid({ error: 'Código no válido: pide uno nuevo' }),
  code: textField('código', { error: msg.required('código') })
    .trim()
    .regex(/^\d{6}$/, { error: 'El código tiene 6 dígitos' }),
  newPassword: newPasswordField,
});
export type CreatePasswordCode = z.infer<typeof createPasswordCodeResponse>;
export type CreatePasswordBody = z.infer<typeof createPasswordBody>;

export type SocialLoginBody = z.infer<typeof socialLoginBody>;
export type SocialLinkBody = z.infer<typeof socialLinkBody>;
export type IdentityResponse = z.infer<typeof identityResponse>;
export type IdentitiesResponse = z.infer<typeof identitiesResponse>;
