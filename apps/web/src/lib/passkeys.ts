import type { WebauthnOptions } from '@divan/core';
import { isApiError } from './http';

/**
 * Passkeys in the browser (issue 32): @simplewebauthn/browser, loaded only when a passkey is used — never in the
 * signed-in shell's first bundle. The options come from the server as they are; the answers go back to it.
 */
const browser = () => import('@simplewebauthn/browser');

/** A host written as an IP address (127.0.0.1, [::1]): WebAuthn refuses it as a passkey's domain. */
const isIpAddress = (host: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.includes(':') || host.startsWith('[');

/** Why passkeys cannot be used on this page, in Spanish; null when they can (synchronous: no import). */
export function passkeysUnavailable(): string | null {
  if (typeof window === 'undefined' || typeof window.PublicKeyCredential !== 'function')
    return 'Este navegador no admite llaves de acceso. Prueba con otro navegador o dispositivo.';
  if (isIpAddress(window.location.hostname))
    return 'Las llaves de acceso necesitan que abras Diván por su nombre (su dirección web), no por una dirección IP.';
  return null;
}

/** Whether passkeys can be used here: a browser with WebAuthn, on a page opened by name. */
export const passkeysSupported = () => passkeysUnavailable() === null;

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
