import { z } from 'zod';
import { msg } from '../messages';
import { requiredText, textField } from '../fields';
import { deviceInfo } from './auth.contracts';

/** How long a WebAuthn challenge may be answered (issue 32). */
export const WEBAUTHN_CHALLENGE_TTL_MS = 5 * 60_000;
export const PASSKEY_NAME_MAX = 60;

const b64url = (label: string, max: number) =>
  textField(label, { error: msg.required(label) })
    .max(max, { error: msg.maxLength(max) })
    .regex(/^[A-Za-z0-9_-]+$/, { error: msg.invalid(label) });

const INVALID_PASSKEY = 'La respuesta de la llave de acceso no es válida';
const transports = z
  .array(z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'], { error: msg.invalidEnum() }))
  .max(8, { error: msg.arrayMax(8) });
const common = {
  id: b64url('identificador de la llave', 1400),
  rawId: b64url('identificador de la llave', 1400),
  type: z.literal('public-key', { error: INVALID_PASSKEY }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform'], { error: msg.invalidEnum() }).optional(),
  clientExtensionResults: z.record(z.string().max(64), z.unknown()).default({}),
};

/** What `startRegistration` of @simplewebauthn/browser answers (a RegistrationResponseJSON). */
export const passkeyRegistrationResponse = z.object({
  ...common,
  response: z.object({
    clientDataJSON: b64url('clientDataJSON', 4000),
    attestationObject: b64url('attestationObject', 16_000),
    authenticatorData: b64url('authenticatorData', 16_000).optional(),
    transports: transports.optional(),
    publicKeyAlgorithm: z.number().int().min(-65_536).max(65_536).optional(),
    publicKey: b64url('clave pública', 4000).optional(),
  }),
});

/** What `startAuthentication` answers (an AuthenticationResponseJSON). */
export const passkeyAuthenticationResponse = z.object({
  ...common,
  response: z.object({
    clientDataJSON: b64url('clientDataJSON', 4000),
    authenticatorData: b64url('authenticatorData', 4000),
    signature: b64url('firma', 2000),
    userHandle: b64url('usuario', 200).optional(),
  }),
});

export const passkeyNameField = requiredText('nombre', PASSKEY_NAME_MAX);

/** Registration: the browser's answer to the options of `/passkeys/options`, with the name the person gives it. */
export const registerPasskeyBody = z.object({ name: passkeyNameField, response: passkeyRegistrationResponse });
export const renamePasskeyBody = z.object({ name: passkeyNameField });
export const passkeyIdParams = z.object({ passkeyId: z.uuid({ error: 'Llave de acceso no encontrada' }) });

/** An answer to the options of a sign-in, a second step or a step-up. */
export const passkeyAssertionBody = z.object({ response: passkeyAuthenticationResponse });
/** Signing in with a passkey alone (a discoverable credential): the same tokens as a sign-in. */
export const passkeySignInBody = deviceInfo.extend({ response: passkeyAuthenticationResponse });
/** The second step of a sign-in answered by a passkey: the challenge of `/code`. */
export const passkeyLoginBody = deviceInfo.extend({
  challenge: textField('desafío', { error: msg.required('desafío') })
    .min(1, { error: msg.required('desafío') })
    .max(200, { error: msg.maxLength(200) }),
  response: passkeyAuthenticationResponse,
});
export const passkeyLoginOptionsBody = passkeyLoginBody.pick({ challenge: true });

export const passkeyResponse = z.object({
  id: z.uuid(),
  name: z.string(),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
  /** A synced passkey (`multiDevice`) or one bound to its device. */
  deviceType: z.enum(['singleDevice', 'multiDevice']),
  backedUp: z.boolean(),
});
export type Passkey = z.infer<typeof passkeyResponse>;
export const passkeyListResponse = z.object({ items: z.array(passkeyResponse) });

/** PublicKeyCredentialCreationOptionsJSON / RequestOptionsJSON, handed to @simplewebauthn/browser as they are. */
export const webauthnOptionsResponse = z.object({ challenge: z.string() }).catchall(z.unknown());
export type WebauthnOptions = z.infer<typeof webauthnOptionsResponse>;
