import { existsSync } from 'node:fs';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const isCi = process.env.CI === 'true';
export const hasChromium = existsSync(chromiumPath);

/** Without Chromium the suite skips with a clear message; under CI that is a failure, not a skip. */
export function assertBrowserOrSkip(): boolean {
  if (hasChromium) return true;
  const message = `Chromium not found at ${chromiumPath} (set CHROMIUM_PATH): end-to-end tests skipped.`;
  if (isCi) throw new Error(`${message} CI=true requires them.`);
  console.warn(message);
  return false;
}
