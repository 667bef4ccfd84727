import { existsSync } from 'node:fs';

/**
 * Debian's old headless shell (`chromium-headless-shell`, what Playwright itself runs headless) when it is
 * there, else the full browser: the same engine without the desktop browser's machinery — measured on the
 * whole suite, its processes spent about 60% of the full browser's CPU (500 s against 790 s) and the run
 * went from 625 s to 493 s.
 */
const headlessShell = '/usr/bin/chromium-headless-shell';
export const chromiumPath = process.env.CHROMIUM_PATH ?? (existsSync(headlessShell) ? headlessShell : '/usr/bin/chromium');
export const isCi = process.env.CI === 'true';
/** The e2e server's OPERATOR_EMAIL: comments from Ajustes → Ayuda are mailed there (read at /dev/mail). */
export const OPERATOR_EMAIL = 'soporte@divan.example';
/** The e2e server's Diván staff account (LEARNING_STAFF_EMAILS) and upload token: the training library's upload tool. */
export const STAFF_EMAIL = 'equipo-formacion@divan.example';
export const LEARNING_UPLOAD_TOKEN = 'token-de-subida-e2e-2026';
export const hasChromium = existsSync(chromiumPath);

/** Without Chromium the suite skips with a clear message; under CI that is a failure, not a skip. */
export function assertBrowserOrSkip(): boolean {
  if (hasChromium) return true;
  const message = `Chromium not found at ${chromiumPath} (set CHROMIUM_PATH): end-to-end tests skipped.`;
  if (isCi) throw new Error(`${message} CI=true requires them.`);
  console.warn(message);
  return false;
}
