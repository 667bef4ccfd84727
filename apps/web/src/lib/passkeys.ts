import type { WebauthnOptions } from '@divan/core';
import { isApiError } from './http';

/**
 * Passkeys in the browser (issue 32): @simplewebauthn/browser, loaded only when a passkey is used — never in the
 * signed-in shell's first bundle. The options come from the server as they are; the answers go back to it.
 */
const browser = () => import('@simplewebauthn/browser');

/** Whether this browser can use passkeys at all (synchronous: no import). */
export const passkeysSupported = () => typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

export async function createPasskey(options: WebauthnOptions) {
  const { startRegistration } = await browser();
  return startRegistration({ optionsJSON: options as never });
}

/** `autofill`: the browser's conditional UI (the passkeys offered under the email field), waiting until one is chosen. */
export async function getPasskey(options: WebauthnOptions, autofill = false) {
  const { startAuthentication } = await browser();
  return startAuthentication({ optionsJSON: options as never, useBrowserAutofill: autofill });
}

export async function supportsPasskeyAutofill(): Promise<boolean> {
  if (!passkeysSupported()) return false;
  const { browserSupportsWebAuthnAutofill } = await browser();
  return browserSupportsWebAuthnAutofill();
}

/** A pending autofill request is cancelled by any other WebAuthn call (the library aborts it). */
export async function cancelPasskeyRequest() {
  const { WebAuthnAbortService } = await browser();
  WebAuthnAbortService.cancelCeremony();
}

/** The browser's reason a passkey step failed, in Spanish (null: not one of the known ones). */
export function passkeyErrorMessage(error: unknown): string | null {
  const name = (error as { name?: string })?.name;
  const code = (error as { code?: string })?.code;
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || name === 'InvalidStateError')
    return 'Esta llave de acceso ya está registrada en tu cuenta.';
  if (name === 'NotAllowedError' || code === 'ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY')
    return 'Se canceló la llave de acceso o se agotó el tiempo. Vuelve a intentarlo.';
  if (name === 'SecurityError') return 'Este navegador no permite usar llaves de acceso en esta dirección.';
  if (name === 'NotSupportedError') return 'Este navegador no admite llaves de acceso.';
  return null;
}

/** What to tell the person when a passkey step failed: the API's message, the browser's reason, or null (aborted). */
export function passkeyFailure(error: unknown): string | null {
  if (isApiError(error)) return error.message;
  const name = (error as { name?: string })?.name;
  const code = (error as { code?: string })?.code;
  if (name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED') return null;
  return passkeyErrorMessage(error) ?? 'No se pudo usar la llave de acceso. Vuelve a intentarlo.';
}
